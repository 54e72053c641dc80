import { Type, type TSchema } from '@sinclair/typebox';
import { CHECK_MAIL_TYPES, CheckInput, MAX_CHECKS_PER_BATCH } from '../../../domain/checks/check-input.js';
import { CHECK_TIME_FIELDS, TIME_OPERATORS } from '../../../domain/checks/list-query.js';

const nullable = <T extends TSchema>(schema: T) => Type.Union([Type.Null(), schema]);

const timeFilter = (description: string) => Type.Optional(Type.String({ minLength: 1, maxLength: 64, description }));

const timeFilters = Object.fromEntries(
  CHECK_TIME_FIELDS.flatMap((field) => [
    [field, timeFilter(`${field}: a bare date means that whole UTC day, a date-time that instant`)],
    ...TIME_OPERATORS.map((operator) => [`${field}__${operator}`, timeFilter(`${field} ${operator} (ISO 8601 date = midnight UTC, or date-time)`)]),
  ]),
);

const sortDirection = Type.Optional(Type.Union([Type.Literal('asc'), Type.Literal('desc')]));

export const ListChecksQuery = Type.Object(
  {
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 10_000, default: 100, description: 'checks to return (1..10000)' })),
    ...timeFilters,
    scheduled: Type.Optional(Type.Boolean({ description: 'true: send_date later than date_created; false: send_date equal to date_created' })),
    mail_type: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: `exact mail type: ${CHECK_MAIL_TYPES.join(' or ')}` })),
    sort_by: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 100,
        description: 'date_created, -date_created, send_date, -send_date, or {"date_created":"asc"}; default -date_created',
      }),
    ),
    'sort_by[date_created]': sortDirection,
    'sort_by[send_date]': sortDirection,
    after: Type.Optional(Type.String({ minLength: 1, maxLength: 4096, description: 'cursor from next_url' })),
    before: Type.Optional(Type.String({ minLength: 1, maxLength: 4096, description: 'cursor from previous_url' })),
  },
  { additionalProperties: false },
);

export const AddChecksBody = Type.Array(CheckInput, {
  maxItems: MAX_CHECKS_PER_BATCH,
  description: 'Lob-shaped checks, added all or none; the service checks them and lists every problem at once',
});

export const AddChecksResponse = Type.Object({ added: Type.Integer({ minimum: 0 }) });

/** Lob's check object, as every provider returns it; documentation of the provider's fields. */
export const CheckObject = Type.Object(
  {
    id: Type.Optional(Type.String({ description: 'chk_...' })),
    description: Type.Optional(nullable(Type.String())),
    metadata: Type.Optional(Type.Record(Type.String(), Type.String())),
    check_number: Type.Optional(Type.Integer()),
    memo: Type.Optional(nullable(Type.String())),
    amount: Type.Optional(Type.Number({ description: 'US dollars' })),
    url: Type.Optional(Type.String()),
    to: Type.Optional(Type.Object({}, { additionalProperties: true, description: 'address object' })),
    from: Type.Optional(Type.Object({}, { additionalProperties: true, description: 'address object' })),
    bank_account: Type.Optional(Type.Unknown({ description: 'bank_account object (or its id)' })),
    carrier: Type.Optional(Type.String()),
    tracking_events: Type.Optional(nullable(Type.Array(Type.Object({}, { additionalProperties: true })))),
    thumbnails: Type.Optional(Type.Array(Type.Object({}, { additionalProperties: true }))),
    expected_delivery_date: Type.Optional(nullable(Type.String())),
    mail_type: Type.Optional(Type.String({ description: CHECK_MAIL_TYPES.join(' or ') })),
    date_created: Type.Optional(Type.String({ format: 'date-time' })),
    date_modified: Type.Optional(Type.String({ format: 'date-time' })),
    send_date: Type.Optional(Type.String()),
    message: Type.Optional(nullable(Type.String())),
    object: Type.Optional(Type.Literal('check')),
  },
  { additionalProperties: true, title: 'Check' },
);

export const CheckList = Type.Object(
  {
    count: Type.Integer({ minimum: 0, description: 'checks in this response' }),
    results: Type.Array(CheckObject),
    next_url: nullable(Type.String({ description: 'this service, with an after cursor' })),
    previous_url: nullable(Type.String({ description: 'this service, with a before cursor' })),
  },
  { title: 'CheckList' },
);

export { CompanyParams } from '../../schemas/company.js';

export const ProviderStatusResponse = Type.Object({
  company_id: Type.String(),
  provider: Type.Union([Type.Literal('local'), Type.Literal('lob')], { description: 'what GET /v1/checks uses' }),
  key_source: Type.Union([Type.Literal('company'), Type.Literal('global'), Type.Literal('none')]),
  lob: Type.Object({
    configured: Type.Boolean({ description: 'the company has a Lob key of its own' }),
    key_last4: nullable(Type.String()),
    updated_at: nullable(Type.String({ format: 'date-time' })),
  }),
  global_lob_key: Type.Boolean({ description: 'LOB_API_KEY is set' }),
});
