import { Type, type Static, type TSchema } from '@sinclair/typebox';

/**
 * A check as the operator adds it to the embedded provider: Lob's published check object
 * (lob/lob-openapi, resources/checks/models/check.yml and the objects it names), every field
 * optional that Lob fills in itself. Fields Lob documents are checked against Lob's types;
 * a name Lob does not document is refused at the top level and in addresses, where operators
 * write by hand and a typo would otherwise be stored silently. Inside the objects Lob
 * generates (bank account, tracking events, thumbnails, failure reason) fields Lob may add
 * later are kept.
 */

/** Lob's check mail types (`usps_standard` is a letter and postcard type, not a check type). */
export const CHECK_MAIL_TYPES = ['usps_first_class', 'ups_next_day_air'] as const;
export type CheckMailType = (typeof CHECK_MAIL_TYPES)[number];
export const DEFAULT_MAIL_TYPE: CheckMailType = 'usps_first_class';

/** At most this many checks in one request. */
export const MAX_CHECKS_PER_BATCH = 10_000;

const nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);
const optional = <T extends TSchema>(schema: T) => Type.Optional(schema);
const text = (maxLength: number) => Type.String({ maxLength });
const prefixedId = (prefix: string, description: string) => Type.String({ pattern: `^${prefix}_[a-zA-Z0-9]{1,64}$`, description });
const timestamp = (description: string) => Type.String({ maxLength: 64, description });
const oneOf = (values: readonly string[], description?: string) =>
  Type.Union(
    values.map((value) => Type.Literal(value)),
    description ? { description } : {},
  );

const Metadata = Type.Record(Type.String(), text(500), {
  maxProperties: 20,
  description: 'an object of up to 20 text values (keys at most 40 characters, values at most 500, neither with " or \\)',
});

/** Lob's US address object (inline; `name` or `company` is required, checked by the service). */
export const CheckAddress = Type.Object(
  {
    id: optional(prefixedId('adr', 'an address id (adr_ followed by letters and digits)')),
    object: optional(Type.Literal('address')),
    description: optional(nullable(text(255))),
    name: optional(nullable(text(40))),
    company: optional(nullable(text(40))),
    phone: optional(nullable(text(40))),
    email: optional(nullable(text(100))),
    address_line1: Type.String({ minLength: 1, maxLength: 64 }),
    address_line2: optional(nullable(text(64))),
    address_city: Type.String({ minLength: 1, maxLength: 200 }),
    address_state: Type.String({ pattern: '^[a-zA-Z]{2}$', description: 'a 2-letter state code' }),
    address_zip: Type.String({ pattern: '^\\d{5}(-\\d{4})?$', description: 'a ZIP code, 12345 or 12345-1234' }),
    address_country: optional(oneOf(['US', 'UNITED STATES'])),
    metadata: optional(Metadata),
    recipient_moved: optional(nullable(Type.Boolean())),
    date_created: optional(timestamp('ISO 8601 date-time')),
    date_modified: optional(timestamp('ISO 8601 date-time')),
    deleted: optional(Type.Boolean()),
  },
  { additionalProperties: false, title: 'CheckAddress', description: "Lob's US address object" },
);

const BankAccountObject = Type.Object(
  {
    id: prefixedId('bank', 'a bank account id (bank_ followed by letters and digits)'),
    object: optional(Type.Literal('bank_account')),
    description: optional(nullable(text(255))),
    routing_number: optional(Type.String({ minLength: 9, maxLength: 9 })),
    account_number: optional(text(17)),
    account_type: optional(oneOf(['company', 'individual'])),
    signatory: optional(text(30)),
    check_template: optional(oneOf(['common', 'jpm'])),
    fractional_routing_number: optional(text(64)),
    city: optional(text(200)),
    state: optional(text(64)),
    zipcode: optional(text(16)),
    bank_name: optional(text(200)),
    verified: optional(Type.Boolean()),
    microdeposit_type: optional(nullable(oneOf(['amounts', 'descriptor_code']))),
    signature_url: optional(nullable(text(2048))),
    metadata: optional(Metadata),
    date_created: optional(timestamp('ISO 8601 date-time')),
    date_modified: optional(timestamp('ISO 8601 date-time')),
    deleted: optional(Type.Boolean()),
  },
  { additionalProperties: true, description: "Lob's bank account object" },
);

const TrackingEvent = Type.Object(
  {
    id: optional(prefixedId('evnt', 'a tracking event id (evnt_ followed by letters and digits)')),
    type: optional(text(64)),
    name: optional(text(64)),
    details: optional(nullable(Type.Object({}, { additionalProperties: true }))),
    location: optional(nullable(text(200))),
    time: optional(timestamp('ISO 8601 date-time')),
    date_created: optional(timestamp('ISO 8601 date-time')),
    date_modified: optional(timestamp('ISO 8601 date-time')),
    object: optional(Type.Literal('tracking_event')),
  },
  { additionalProperties: true, description: "Lob's tracking event object" },
);

const Thumbnail = Type.Object(
  { small: optional(text(2048)), medium: optional(text(2048)), large: optional(text(2048)) },
  { additionalProperties: true, description: 'links to the small, medium and large images of one page' },
);

const FailureReason = Type.Object(
  {
    remediation: optional(nullable(text(2000))),
    failure_reason: optional(nullable(text(2000))),
    errors: optional(nullable(Type.Array(Type.Object({}, { additionalProperties: true })))),
  },
  { additionalProperties: true, description: 'why the render failed' },
);

export const CheckInput = Type.Object(
  {
    id: optional(prefixedId('chk', 'a check id (chk_ followed by 1 to 64 letters and digits); generated when absent')),
    object: optional(Type.Literal('check')),
    description: optional(nullable(text(255))),
    metadata: optional(Metadata),
    check_number: optional(Type.Integer({ minimum: 1, maximum: 500_000_000 })),
    memo: optional(nullable(text(40))),
    message: optional(nullable(text(400))),
    amount: Type.Number({ exclusiveMinimum: 0, maximum: 999_999.99, description: 'US dollars in whole cents' }),
    to: CheckAddress,
    from: CheckAddress,
    bank_account: Type.Union([BankAccountObject.properties.id, BankAccountObject], {
      description: "a bank account id (bank_...) or Lob's bank account object",
    }),
    mail_type: optional(oneOf(CHECK_MAIL_TYPES, `${CHECK_MAIL_TYPES.join(' or ')}; default ${DEFAULT_MAIL_TYPE}`)),
    send_date: optional(timestamp('ISO 8601 date or date-time; default date_created')),
    date_created: optional(timestamp('ISO 8601 date or date-time; default now')),
    date_modified: optional(timestamp('ISO 8601 date or date-time; default date_created')),
    expected_delivery_date: optional(nullable(timestamp('YYYY-MM-DD'))),
    url: optional(Type.String({ pattern: '^https://', maxLength: 2048, description: 'an https:// link' })),
    carrier: optional(Type.String({ minLength: 1, maxLength: 64, description: 'the carrier Lob names; default USPS' })),
    tracking_events: optional(nullable(Type.Array(TrackingEvent))),
    thumbnails: optional(Type.Array(Thumbnail)),
    merge_variables: optional(nullable(Type.Object({}, { additionalProperties: true }))),
    check_bottom_template_id: optional(nullable(prefixedId('tmpl', 'a template id (tmpl_...)'))),
    attachment_template_id: optional(nullable(prefixedId('tmpl', 'a template id (tmpl_...)'))),
    check_bottom_template_version_id: optional(nullable(prefixedId('vrsn', 'a template version id (vrsn_...)'))),
    attachment_template_version_id: optional(nullable(prefixedId('vrsn', 'a template version id (vrsn_...)'))),
    use_type: optional(nullable(oneOf(['marketing', 'operational']))),
    status: optional(oneOf(['processed', 'rendered', 'failed'])),
    failure_reason: optional(nullable(FailureReason)),
    // Not in Lob's check model, but in Lob's own example of a check.
    sla: optional(nullable(text(64))),
    deleted: optional(Type.Boolean()),
  },
  { additionalProperties: false, title: 'CheckInput' },
);

/** A check as the operator adds it (the demo data is written in it). */
export type NewCheck = Static<typeof CheckInput>;
