import { Type, type TSchema } from '@sinclair/typebox';
import { FIELD_TYPES } from '../../../domain/record-types/definition.js';
import { MAX_PAGE_SIZE, RECORD_ORDERS, type RecordListParam } from '../../../domain/records/list-query.js';
import { RecordSchema } from '../../../domain/records/record.js';

export const RecordParams = Type.Object({ record: Type.String({ description: 'record ID', maxLength: 200 }) });
export const TypeIdParams = Type.Object({ typeId: Type.String({ description: 'custom record type ID', maxLength: 200 }) });

const FieldValue = Type.Union([Type.Boolean(), Type.Number(), Type.String(), Type.Null()]);

export const CreateRecordBody = Type.Record(Type.String({ description: 'field UID' }), FieldValue, {
  description:
    'Field UIDs mapped to values: boolean, number, string, or a date string YYYY-MM-DD, as the type says. ' +
    'Required fields must be present; null or "" count as missing.',
});

export const UpdateRecordBody = Type.Record(Type.String({ description: 'field UID, or status' }), FieldValue, {
  description:
    'Field UIDs mapped to new values (merged into the record); null or "" clears a field that is not required. ' +
    "The reserved key status sets the status (one of the type's statuses).",
});

const MissingField = Type.Object({ uid: Type.String(), field_name: Type.String() });
const FieldTypeError = Type.Object({
  uid: Type.String(),
  field_name: Type.String(),
  expected: Type.String({ description: `${FIELD_TYPES.join(', ')} (date is YYYY-MM-DD); for status: the allowed statuses` }),
});

export const CreateRecordValidationError = Type.Object(
  {
    message: Type.String(),
    code: Type.Literal('validation_failed'),
    invalid_fields: Type.Array(Type.String(), { description: 'field IDs not recognised for the record type (at most 100 listed)' }),
    required_fields: Type.Array(MissingField, { description: 'required fields not provided (at most 100 listed)' }),
    type_errors: Type.Array(FieldTypeError, { description: 'fields whose value had the wrong type (at most 100 listed)' }),
    error_count: Type.Integer({ description: 'the number of problems in all three lists, including those not listed' }),
  },
  { title: 'ValidationError' },
);

const PlainError = Type.Object({ message: Type.String(), code: Type.String() }, { additionalProperties: true });

/** 400 of the routes that validate records: the validation lists, or a plain error (a body that is not an object). */
export const RecordBadRequest = Type.Union([CreateRecordValidationError, PlainError], {
  description: 'ValidationError (code validation_failed), or an Error (code invalid_body)',
});

const filter = (description: string) => Type.Optional(Type.String({ minLength: 1, maxLength: 200, description }));
const timestampFilter = (description: string) =>
  Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 64,
      description: `${description} (strict); ISO 8601 date (midnight UTC) or date-time with Z or an offset; at most one timestamp filter per request`,
    }),
  );

// `satisfies`: the schema names exactly the parameters the domain parser reads.
const LIST_RECORDS_PARAMS = {
  record_type: filter(
    "filter by record type (custom, uccfiling, ...), or by the ID of one of the company's custom record types (its records, whose record_type is custom)",
  ),
  recordType: filter('alias of record_type'),
  view_id: filter('filter by view (bucket) ID'),
  viewId: filter('alias of view_id'),
  created_after: timestampFilter('records created after this time'),
  createdAfter: timestampFilter('alias of created_after'),
  created_before: timestampFilter('records created before this time'),
  createdBefore: timestampFilter('alias of created_before'),
  updated_after: timestampFilter('records updated after this time'),
  updatedAfter: timestampFilter('alias of updated_after'),
  updated_before: timestampFilter('records updated before this time'),
  updatedBefore: timestampFilter('alias of updated_before'),
  next: filter('record ID: the records after it; not with prev'),
  prev: filter('record ID: the page just before it (still in the list order); not with next'),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_PAGE_SIZE, description: `records per page (extension), default and maximum ${MAX_PAGE_SIZE}` })),
  order_by: Type.Optional(
    Type.Unsafe<string>({
      type: 'string',
      enum: Object.keys(RECORD_ORDERS),
      description:
        'order of the list (extension): created_at (the default) or updated_at, ascending; prefix with - for descending. ' +
        'Ties are broken by id in the same direction; next and prev walk this order and the links keep it.',
    }),
  ),
} satisfies Record<RecordListParam, TSchema>;

export const ListRecordsQuery = Type.Object(LIST_RECORDS_PARAMS, { additionalProperties: false });

export const RecordsListResponse = Type.Object(
  {
    count: Type.Integer({ description: `number of records returned; at most ${MAX_PAGE_SIZE}` }),
    next: Type.Union([Type.String(), Type.Null()], { description: 'URL of the next batch, null at the end' }),
    prev: Type.Union([Type.String(), Type.Null()], { description: 'URL of the previous batch, null at the start' }),
    results: Type.Array(RecordSchema),
  },
  { title: 'RecordList' },
);
