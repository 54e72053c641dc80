import { Type, type Static } from '@sinclair/typebox';
import type { CompiledRecordType } from '../record-types/compiled-type.js';
import type { StoredRecord } from './stored-record.js';

const Timestamp = Type.String({ format: 'date-time', description: 'ISO 8601 UTC with milliseconds' });
const JsonObject = Type.Record(Type.String(), Type.Unknown());

/** A record as the API returns it; optional keys are absent when the record has none. The one Record shape: types, serialisation and OpenAPI. */
export const RecordSchema = Type.Object(
  {
    id: Type.String({ description: 'unique record identifier' }),
    record_type: Type.String({ description: 'record type: custom, uccfiling, infoleaseasset, ...' }),
    uid: Type.Optional(Type.Unknown({ description: 'UID of the record type definition (the typeId of a custom record)' })),
    status: Type.String({ description: 'current status' }),
    parent_record: Type.Optional(Type.Union([JsonObject, Type.Null()], { description: 'parent record, null if none' })),
    child_records: Type.Array(Type.Unknown(), { description: 'child record objects' }),
    instance: Type.Optional(Type.Unknown({ description: 'underlying instance object, when applicable' })),
    fields: Type.Optional(Type.Record(Type.String(), Type.Unknown(), { description: 'custom field values keyed by field name' })),
    linked: Type.Optional(
      Type.Record(Type.String(), JsonObject, {
        description: 'linked external objects: keyed by source name, each value keyed by object name',
      }),
    ),
    views: Type.Array(Type.String(), { description: 'IDs of the views (buckets) the record is in' }),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { title: 'Record' },
);

export type RecordResource = Static<typeof RecordSchema>;

export const CUSTOM_RECORD_TYPE = 'custom';

/** The custom record type a record follows: its uid, for records of kind `custom`. */
export function typeIdOf(recordType: string, uid: unknown): string | null {
  return recordType === CUSTOM_RECORD_TYPE && typeof uid === 'string' ? uid : null;
}

const json = (text: string | null): unknown => (text === null ? undefined : JSON.parse(text));

/**
 * Builds the API form of a stored record. A record of a live custom type is in the views its
 * current status puts it in; any other record keeps the views it was imported with.
 */
export function toRecordResource(row: StoredRecord, type: CompiledRecordType | undefined): RecordResource {
  // Keys in RecordSchema's order, so that JSON.stringify gives the bytes the API sends.
  const resource = { id: row.id, record_type: row.record_type } as RecordResource;
  if (row.uid !== null) resource.uid = json(row.uid);
  resource.status = row.status;
  if (row.parent_record !== null) resource.parent_record = json(row.parent_record) as RecordResource['parent_record'];
  resource.child_records = JSON.parse(row.child_records) as unknown[];
  if (row.instance !== null) resource.instance = json(row.instance);
  if (row.fields !== null) resource.fields = json(row.fields) as RecordResource['fields'];
  if (row.linked !== null) resource.linked = json(row.linked) as RecordResource['linked'];
  resource.views = type ? type.viewsFor(row.status) : (JSON.parse(row.views) as string[]);
  resource.created_at = row.created_at;
  resource.updated_at = row.updated_at;
  return resource;
}

/** Stores a value of an optional JSON column: absent as NULL, anything else as JSON text. */
export function toJsonColumn(value: unknown): string | null {
  return value === undefined ? null : JSON.stringify(value);
}
