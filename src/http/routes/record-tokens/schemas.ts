import { Type } from '@sinclair/typebox';
import { DEFAULT_EXPIRES_IN, MAX_EXPIRES_IN } from '../../../domain/record-tokens/mint-request.js';

const Lifetime = (description: string) =>
  Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_EXPIRES_IN, default: DEFAULT_EXPIRES_IN, description }));

export const MintRecordTokenBody = Type.Object(
  {
    expires_in: Lifetime('seconds until expiry: 1 to 2592000 (30 days), default 86400 (1 day)'),
    expires: Lifetime('alias of expires_in'),
    record_id: Type.Optional(Type.String({ description: 'must equal the record of the path' })),
    recordId: Type.Optional(Type.String({ description: 'alias of record_id' })),
  },
  { additionalProperties: false, description: 'optional; an absent body mints a token valid for one day' },
);

const tokenProperties = {
  company_id: Type.String({ description: 'company of the token' }),
  companyId: Type.String({ description: 'alias of company_id' }),
  created_at: Type.String({ format: 'date-time', description: 'issue time (whole seconds, the JWT iat)' }),
  createdAt: Type.Object(
    { _seconds: Type.Integer(), _nanoseconds: Type.Integer() },
    { description: 'created_at in the datastore-native form' },
  ),
  expires_at: Type.String({ format: 'date-time', description: 'expiry time (the JWT exp)' }),
  expires: Type.Integer({ description: 'lifetime in seconds: expires_at - created_at' }),
  key: Type.String({ description: 'the token document ID (the JWT jti)' }),
  record_id: Type.String({ description: 'the record the token may read and update' }),
  recordId: Type.String({ description: 'alias of record_id' }),
  type: Type.Literal('record'),
  user_id: Type.String({ description: 'the user who minted the token' }),
  userId: Type.String({ description: 'alias of user_id' }),
};

export const RecordTokenResponse = Type.Object(
  { ...tokenProperties, token: Type.String({ description: 'the signed JWT: send it as "Authorization: Bearer <token>"' }) },
  { title: 'RecordTokenResponse' },
);

export const RecordTokenSummary = Type.Object(tokenProperties, { title: 'RecordTokenSummary' });

export const RecordTokenList = Type.Object({
  count: Type.Integer(),
  results: Type.Array(RecordTokenSummary, { description: 'live tokens (neither revoked nor expired), oldest first' }),
});

export const TokenKeyParams = Type.Object({
  record: Type.String({ maxLength: 200, description: 'record ID' }),
  key: Type.String({ maxLength: 200, description: 'token key' }),
});
