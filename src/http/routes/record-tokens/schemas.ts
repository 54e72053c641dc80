import { Type } from '@sinclair/typebox';
import { DEFAULT_EXPIRES_IN, MAX_EXPIRES_IN, MAX_LABEL_LENGTH, MAX_NARROWED_FIELDS } from '../../../domain/record-tokens/mint-request.js';

const Lifetime = (description: string) => Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_EXPIRES_IN, default: DEFAULT_EXPIRES_IN, description }));

export const MintRecordTokenBody = Type.Object(
  {
    expires_in: Lifetime('seconds until expiry: 1 to 2592000 (30 days), default 86400 (1 day)'),
    expires: Lifetime('alias of expires_in'),
    record_id: Type.Optional(Type.String({ description: 'must equal the record of the path' })),
    recordId: Type.Optional(Type.String({ description: 'alias of record_id' })),
    fields: Type.Optional(
      Type.Array(Type.String({ minLength: 1 }), {
        maxItems: MAX_NARROWED_FIELDS,
        description:
          "narrows the token to these field UIDs (each must be a field of the record's type, else 400): it sees only those of them " +
          "its type's form shows, and may change only those the form marks editable. Absent: every field the form shows.",
      }),
    ),
    status_editable: Type.Optional(
      Type.Boolean({ description: "false: the token may not set the status. true or absent: as the type's form says (no form: it may)" }),
    ),
    label: Type.Optional(Type.String({ maxLength: MAX_LABEL_LENGTH, description: 'a note for the token list, such as "sent to J. Smith, borrower"' })),
  },
  { additionalProperties: false, description: "optional; an absent body mints a token valid for one day that may do all its type's form allows" },
);

const tokenProperties = {
  company_id: Type.String({ description: 'company of the token' }),
  companyId: Type.String({ description: 'alias of company_id' }),
  created_at: Type.String({ format: 'date-time', description: 'issue time (whole seconds, the JWT iat)' }),
  createdAt: Type.Object({ _seconds: Type.Integer(), _nanoseconds: Type.Integer() }, { description: 'created_at in the datastore-native form' }),
  expires_at: Type.String({ format: 'date-time', description: 'expiry time (the JWT exp)' }),
  expires: Type.Integer({ description: 'lifetime in seconds: expires_at - created_at' }),
  key: Type.String({ description: 'the token document ID (the JWT jti)' }),
  record_id: Type.String({ description: 'the record the token may read and update' }),
  recordId: Type.String({ description: 'alias of record_id' }),
  type: Type.Literal('record'),
  user_id: Type.String({ description: 'the user who minted the token' }),
  userId: Type.String({ description: 'alias of user_id' }),
  label: Type.Union([Type.String(), Type.Null()], { description: 'the note given at minting, null when none' }),
  fields: Type.Union([Type.Array(Type.String()), Type.Null()], { description: 'the field UIDs the mint narrowed the token to; null when it did not' }),
  status_editable: Type.Union([Type.Boolean(), Type.Null()], { description: 'false when the mint forbade setting the status; null when it said nothing' }),
  access: Type.Object(
    {
      fields: Type.Array(Type.Object({ uid: Type.String(), editable: Type.Boolean() }), {
        description: 'the fields GET /records/{record} shows the token (no other key of fields); editable false: a PATCH of it is 403',
      }),
      status_editable: Type.Boolean({ description: 'false: a PATCH of status is 403' }),
    },
    {
      description:
        "what the token may do: its record type's form (absent: every field and the status) narrowed by the mint. " +
        'A PATCH naming anything else is 403 forbidden naming each such field, and changes nothing.',
    },
  ),
};

export const RecordTokenResponse = Type.Object(
  { ...tokenProperties, token: Type.String({ description: 'the signed JWT: send it as "Authorization: Bearer <token>"' }) },
  { title: 'MintedRecordToken' },
);

export const RecordTokenSummary = Type.Object(tokenProperties, { title: 'RecordToken' });

export const RecordTokenList = Type.Object(
  {
    count: Type.Integer(),
    results: Type.Array(RecordTokenSummary, { description: 'live tokens (neither revoked nor expired), oldest first' }),
  },
  { title: 'RecordTokenList' },
);

export const TokenKeyParams = Type.Object({
  record: Type.String({ maxLength: 200, description: 'record ID' }),
  key: Type.String({ maxLength: 200, description: 'token key' }),
});
