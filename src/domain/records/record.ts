import { Type, type Static } from '@sinclair/typebox';
import type { CompiledRecordType } from '../record-types/compiled-type.js';
import type { RecordModel } from './record-model.js';

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

/**
 * Builds the API form of a record. A record of a live custom type is in the views its current
 * status puts it in; any other record keeps the views it was imported with.
 */
export function toRecordResource(record: RecordModel, type: CompiledRecordType | undefined): RecordResource {
  // Keys in RecordSchema's order, so that JSON.stringify gives the bytes the API sends.
  const resource = { id: record.id, record_type: record.recordType } as RecordResource;
  if (record.uid !== undefined) resource.uid = record.uid;
  resource.status = record.status;
  if (record.parentRecord !== undefined) resource.parent_record = record.parentRecord;
  resource.child_records = record.childRecords as unknown[];
  if (record.instance !== undefined) resource.instance = record.instance;
  if (record.fields !== undefined) resource.fields = record.fields;
  if (record.linked !== undefined) resource.linked = record.linked as RecordResource['linked'];
  resource.views = type ? type.viewsFor(record.status) : (record.storedViews as string[]);
  resource.created_at = record.createdAt;
  resource.updated_at = record.updatedAt;
  return resource;
}
