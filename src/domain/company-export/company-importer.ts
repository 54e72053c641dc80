import { createHash } from 'node:crypto';
import { companyHasData, exportFileRefused } from '../../errors/app-error.js';
import type { SecretBox } from '../../lib/secret-box.js';
import { COMPANY_ID_RULE, companyIdProblem } from '../auth/company-id.js';
import type { DataVersions } from '../data-versions.port.js';
import type { TransactionScope, UnitOfWork } from '../unit-of-work.js';
import { newWebhookSecret } from '../webhooks/signature.js';
import { secretContext } from '../webhooks/webhooks-service.js';
import type { CompanyDataStore, ExportedRow } from './company-data.port.js';
import { EXPORT_FORMAT, EXPORT_FORMAT_VERSION, TRAILER_KIND, type ExportHeader } from './export-format.js';
import { fileLines } from './file-lines.js';

/** Rows written per statement batch, and the bytes of export text after which a batch is written sooner. */
const BATCH_ROWS = 1000;
const BATCH_BYTES = 4 * 1_048_576;

export interface CompanyImporterDeps {
  readonly store: CompanyDataStore;
  readonly unitOfWork: UnitOfWork;
  readonly dataVersions: DataVersions;
  readonly secretBox: SecretBox;
  /** After the events are committed (the planner's statistics). */
  readonly afterEventsWritten?: (events: number) => Promise<void>;
}

/** A webhook the import stored, with the secret the target made for it (the export carries none). */
export interface ImportedWebhook {
  readonly id: string;
  readonly url: string;
  readonly secret: string;
}

export interface ImportReport {
  readonly company: string;
  readonly source: Pick<ExportHeader, 'service_version' | 'exported_at' | 'database'>;
  readonly counts: Record<string, number>;
  readonly webhooks: ImportedWebhook[];
}

export interface CompanyImporter {
  /**
   * Checks the whole file (format version, every line, the counts and the checksum), then loads
   * it in one transaction into the company its header names, which must hold no data. `open`
   * is called once per pass: the file is read twice and never held whole.
   */
  importFile(open: () => AsyncIterable<Uint8Array>): Promise<ImportReport>;
}

interface Verified {
  readonly header: ExportHeader;
  readonly counts: Record<string, number>;
  readonly sha256: string;
}

export function createCompanyImporter(deps: CompanyImporterDeps): CompanyImporter {
  const { store } = deps;

  async function refuseIfHoldingData(companyId: string, scope?: TransactionScope): Promise<void> {
    const tables = await store.tablesHolding(companyId, scope);
    if (tables.length > 0) {
      throw companyHasData(
        `company '${companyId}' already has data on this deployment (in ${tables.join(', ')}); ` +
          'an import only fills a company that has none: nothing was imported',
        tables,
      );
    }
  }

  return {
    async importFile(open) {
      const verified = await verify(store, open());
      const companyId = verified.header.company;
      await refuseIfHoldingData(companyId);
      const webhooks: ImportedWebhook[] = [];
      await deps.unitOfWork.run(async (scope) => {
        await refuseIfHoldingData(companyId, scope);
        const pass = await load(deps, companyId, open(), scope, webhooks);
        // The file is read a second time: it must still be the one verified.
        if (pass.sha256 !== verified.sha256) throw exportFileRefused('the file changed while it was being imported: nothing was imported');
        await deps.dataVersions.bump(scope, companyId);
      });
      if (verified.counts.events) await deps.afterEventsWritten?.(verified.counts.events);
      const { service_version, exported_at, database } = verified.header;
      return { company: companyId, source: { service_version, exported_at, database }, counts: verified.counts, webhooks };
    },
  };
}

async function verify(store: CompanyDataStore, chunks: AsyncIterable<Uint8Array>): Promise<Verified> {
  const hash = createHash('sha256');
  const counts: Record<string, number> = Object.fromEntries(store.kinds.map((kind) => [kind, 0]));
  let header: ExportHeader | undefined;
  let trailer: Record<string, unknown> | undefined;
  let number = 0;
  for await (const { bytes, terminated } of fileLines(chunks)) {
    number += 1;
    if (trailer) throw exportFileRefused(`line ${number} follows the trailer line: the file is not one export as written`);
    if (!terminated) {
      const last = tryParse(bytes);
      if (number > 1 && last?.kind === TRAILER_KIND) {
        trailer = last;
        continue;
      }
      throw exportFileRefused(`the file ends inside line ${number}, without its trailer line: it is truncated; nothing was imported`);
    }
    const value = parseLine(bytes, number);
    if (number === 1) {
      header = checkHeader(value);
    } else if (value.kind === TRAILER_KIND) {
      trailer = value;
      continue;
    } else {
      const problem = itemProblem(store, value);
      if (problem) throw exportFileRefused(`line ${number}: ${problem}`);
      counts[value.kind as string]! += 1;
    }
    hash.update(bytes).update('\n');
  }
  if (!header) throw exportFileRefused('the file is empty');
  if (!trailer) {
    throw exportFileRefused(`the file ends after line ${number} without its trailer line: it is truncated; nothing was imported`);
  }
  const sha256 = hash.digest('hex');
  if (trailer.sha256 !== sha256) {
    throw exportFileRefused('its checksum does not match its lines (the file was altered or damaged): nothing was imported');
  }
  const declared = trailer.counts;
  if (typeof declared !== 'object' || declared === null) throw exportFileRefused('its trailer line has no counts');
  for (const kind of new Set([...Object.keys(declared), ...store.kinds])) {
    const stated = (declared as Record<string, unknown>)[kind];
    if (stated !== counts[kind]) {
      throw exportFileRefused(`the trailer counts ${String(stated ?? 'no')} ${kind} lines but the file holds ${counts[kind] ?? 0}: nothing was imported`);
    }
  }
  return { header, counts, sha256 };
}

function tryParse(bytes: Buffer): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(bytes.toString('utf8'));
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

function parseLine(bytes: Buffer, number: number): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(bytes.toString('utf8'));
  } catch {
    throw exportFileRefused(`line ${number} is not JSON: the file is damaged or not a company export`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw exportFileRefused(`line ${number} is not a JSON object`);
  return value as Record<string, unknown>;
}

function checkHeader(value: Record<string, unknown>): ExportHeader {
  if (value.format !== EXPORT_FORMAT) throw exportFileRefused(`not a wrs company export: its first line does not name the format "${EXPORT_FORMAT}"`);
  if (value.version !== EXPORT_FORMAT_VERSION) {
    throw exportFileRefused(
      `the file is format version ${JSON.stringify(value.version)} of ${EXPORT_FORMAT}; this wrs reads version ${EXPORT_FORMAT_VERSION} only: ` +
        'import it with the wrs version that wrote it (its header names it)',
    );
  }
  const problem = typeof value.company === 'string' ? companyIdProblem(value.company) : 'is not a string';
  if (problem) throw exportFileRefused(`its header's company ${problem} (${COMPANY_ID_RULE})`);
  for (const field of ['service_version', 'exported_at', 'database'] as const) {
    if (typeof value[field] !== 'string') throw exportFileRefused(`its header has no ${field}`);
  }
  return value as unknown as ExportHeader;
}

function itemProblem(store: CompanyDataStore, value: Record<string, unknown>): string | null {
  if (typeof value.kind !== 'string' || !store.kinds.includes(value.kind)) {
    return `unknown kind ${JSON.stringify(value.kind)} (this wrs knows ${store.kinds.join(', ')})`;
  }
  const keys = Object.keys(value);
  if (keys.length !== 2 || !('data' in value)) return 'an item line holds exactly "kind" and "data"';
  const problem = store.rowProblem(value.kind, value.data);
  return problem && `${value.kind}: ${problem}`;
}

/** The second pass: every item written in batches per kind, inside the scope. */
async function load(
  deps: CompanyImporterDeps,
  companyId: string,
  chunks: AsyncIterable<Uint8Array>,
  scope: TransactionScope,
  webhooks: ImportedWebhook[],
): Promise<{ sha256: string }> {
  const hash = createHash('sha256');
  let kind: string | undefined;
  let batch: ExportedRow[] = [];
  let batchBytes = 0;
  const flush = async (): Promise<void> => {
    if (kind !== undefined && batch.length > 0) {
      try {
        await deps.store.insert(companyId, kind, batch, scope);
      } catch (error) {
        throw exportFileRefused(`the database refused the ${kind} items before line ${number + 1}: ${(error as Error).message}; nothing was imported`);
      }
    }
    batch = [];
    batchBytes = 0;
  };
  let number = 0;
  for await (const { bytes } of fileLines(chunks)) {
    number += 1;
    const value = parseLine(bytes, number);
    if (number > 1 && value.kind === TRAILER_KIND) break;
    hash.update(bytes).update('\n');
    if (number === 1) continue;
    if (value.kind !== kind) {
      await flush();
      kind = value.kind as string;
    }
    let data = value.data as ExportedRow;
    if (kind === 'webhooks') data = withNewSecret(deps.secretBox, companyId, data, webhooks);
    batch.push(data);
    batchBytes += bytes.length;
    if (batch.length >= BATCH_ROWS || batchBytes >= BATCH_BYTES) await flush();
  }
  await flush();
  return { sha256: hash.digest('hex') };
}

/** A webhook's secret is never exported: the target makes a new one, which the report hands to the operator. */
function withNewSecret(secretBox: SecretBox, companyId: string, data: ExportedRow, webhooks: ImportedWebhook[]): ExportedRow {
  const id = data.id as string;
  const secret = newWebhookSecret();
  webhooks.push({ id, url: data.url as string, secret });
  return { ...data, secret: secretBox.seal(secret, secretContext(companyId, id)), previous_secret: null, previous_secret_expires_at: null };
}
