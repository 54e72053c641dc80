import type { JWTPayload } from 'jose';
import { forbidden, notFound, unauthorized } from '../../errors/app-error.js';
import type { Clock } from '../../lib/clock.js';
import { uuidv7 } from '../../lib/ids.js';
import type { RecordTokenResolver } from '../auth/authenticator.js';
import type { Identity, RecordTokenIdentity } from '../auth/identity.js';
import type { TokenSigner } from '../auth/token-signer.js';
import type { RecordsService } from '../records/records-service.js';
import type { UnitOfWork } from '../unit-of-work.js';
import type { WebhookOutbox } from '../webhooks/outbox.js';
import { accessibleFields, recordAccessOf } from '../records/record-access.js';
import type { RecordType } from '../record-types/definition.js';
import type { RecordTypesService } from '../record-types/record-types-service.js';
import { assertFieldsOfType, parseMintRequest } from './mint-request.js';
import type { RecordTokenDocument, RecordTokenNarrowing } from './record-token.js';
import type { RecordTokensRepository } from './record-tokens-repository.port.js';

/** A record token's document as the API shows it (never with the token string). */
export interface RecordTokenView {
  company_id: string;
  companyId: string;
  created_at: string;
  /** The datastore-native form of created_at. */
  createdAt: { _seconds: number; _nanoseconds: number };
  expires_at: string;
  /** Lifetime in seconds: expires_at - created_at. */
  expires: number;
  key: string;
  record_id: string;
  recordId: string;
  type: 'record';
  user_id: string;
  userId: string;
  /** The minter's note, null when none. */
  label: string | null;
  /** The field UIDs the mint narrowed the token to; null when it did not. */
  fields: string[] | null;
  /** false when the mint forbade setting the status; null when it said nothing. */
  status_editable: boolean | null;
  /** What the token may do now: its record type's form (if any) narrowed by the mint. */
  access: TokenAccessView;
}

export interface TokenAccessView {
  /** The fields the token sees, in the type's order (the form's order when it has one); editable false: read-only. */
  fields: Array<{ uid: string; editable: boolean }>;
  status_editable: boolean;
}

export interface MintedRecordToken extends RecordTokenView {
  token: string;
}

export interface RecordTokensService extends RecordTokenResolver {
  mint(identity: Identity, recordId: string, body: unknown): Promise<MintedRecordToken>;
  listLive(identity: Identity, recordId: string): Promise<RecordTokenView[]>;
  revoke(identity: Identity, recordId: string, key: string): Promise<void>;
}

export interface RecordTokensServiceDeps {
  repository: RecordTokensRepository;
  records: RecordsService;
  recordTypes: RecordTypesService;
  signer: TokenSigner;
  clock: Clock;
  unitOfWork: UnitOfWork;
  /** Announces record_token.created in the mint's own transaction. */
  outbox: WebhookOutbox;
}

export const RECORD_TOKEN_TYPE = 'record';

export function createRecordTokensService({
  repository,
  records,
  recordTypes,
  signer,
  clock,
  unitOfWork,
  outbox,
}: RecordTokensServiceDeps): RecordTokensService {
  async function assertRecord(identity: Identity, recordId: string): Promise<string> {
    if (identity.kind !== 'user') throw forbidden('a record token cannot manage record tokens');
    if (!(await records.exists(identity.companyId, recordId))) throw notFound(`record '${recordId}' not found`);
    return identity.companyId;
  }

  async function typeOfRecord(companyId: string, recordId: string): Promise<RecordType | undefined> {
    const typeId = await records.typeIdOf(companyId, recordId);
    return typeId === null ? undefined : (await recordTypes.compiled(companyId, typeId))?.type;
  }

  return {
    async mint(identity, recordId, body) {
      const { expiresIn, ...narrowing } = parseMintRequest(body, recordId);
      const companyId = await assertRecord(identity, recordId);
      if (identity.kind !== 'user' || !identity.userId) {
        throw forbidden('record tokens are minted on behalf of a user: the bearer token must name one (sub)');
      }
      const type = await typeOfRecord(companyId, recordId);
      assertFieldsOfType(narrowing.visible_fields, type, recordId);
      const key = uuidv7(clock.now().getTime());
      const signed = await signer.sign({ type: RECORD_TOKEN_TYPE, record_id: recordId, company_id: companyId, sub: identity.userId, jti: key }, expiresIn);
      const document = {
        key,
        record_id: recordId,
        user_id: identity.userId,
        created_at: signed.issuedAt.toISOString(),
        expires_at: signed.expiresAt.toISOString(),
        ...narrowing,
      };
      const minted = view(companyId, { ...document, revoked_at: null }, type);
      await unitOfWork.run(async (scope) => {
        await repository.insert(companyId, document, scope);
        await outbox.enqueue(scope, companyId, 'record_token.created', minted);
      });
      return { ...minted, token: signed.token };
    },

    async listLive(identity, recordId) {
      const companyId = await assertRecord(identity, recordId);
      const documents = await repository.listLive(companyId, recordId, clock.now().toISOString());
      const type = documents.length === 0 ? undefined : await typeOfRecord(companyId, recordId);
      return documents.map((document) => view(companyId, document, type));
    },

    async revoke(identity, recordId, key) {
      const companyId = await assertRecord(identity, recordId);
      if (!(await repository.revoke(companyId, recordId, key, clock.now().toISOString()))) {
        throw notFound(`record '${recordId}' has no token '${key}'`);
      }
    },

    async resolve(payload: JWTPayload): Promise<RecordTokenIdentity> {
      const key = text(payload.jti);
      const recordId = text(payload.record_id);
      const companyId = text(payload.company_id);
      const userId = text(payload.sub);
      if (payload.type !== RECORD_TOKEN_TYPE || !key || !recordId || !companyId || !userId) {
        throw unauthorized('record token is missing claims');
      }
      const document = await repository.find(companyId, key);
      if (!document) throw unauthorized('record token is unknown');
      if (document.record_id !== recordId || document.user_id !== userId) {
        throw unauthorized('record token does not match its stored document');
      }
      if (document.revoked_at !== null) throw unauthorized('record token has been revoked');
      if (document.expires_at <= clock.now().toISOString()) throw unauthorized('record token has expired');
      const narrowing = { visible_fields: document.visible_fields, status_editable: document.status_editable };
      return { kind: 'record', companyId, userId, recordId, tokenKey: key, narrowing };
    },
  };
}

function view(companyId: string, document: RecordTokenDocument, type: RecordType | undefined): RecordTokenView {
  const createdMillis = Date.parse(document.created_at);
  return {
    company_id: companyId,
    companyId,
    created_at: document.created_at,
    createdAt: { _seconds: Math.floor(createdMillis / 1000), _nanoseconds: (createdMillis % 1000) * 1_000_000 },
    expires_at: document.expires_at,
    expires: Math.round((Date.parse(document.expires_at) - createdMillis) / 1000),
    key: document.key,
    record_id: document.record_id,
    recordId: document.record_id,
    type: RECORD_TOKEN_TYPE,
    user_id: document.user_id,
    userId: document.user_id,
    label: document.label,
    fields: document.visible_fields,
    status_editable: document.status_editable,
    access: accessView(type, document),
  };
}

function accessView(type: RecordType | undefined, narrowing: RecordTokenNarrowing): TokenAccessView {
  const access = recordAccessOf(type, narrowing);
  if (!access) return { fields: (type?.fields ?? []).map((field) => ({ uid: field.uid, editable: true })), status_editable: true };
  return { fields: accessibleFields(type, access), status_editable: access.statusEditable };
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value.length > 0 ? value : undefined;
}
