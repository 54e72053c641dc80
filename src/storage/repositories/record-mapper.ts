import type { RecordModel } from '../../domain/records/record-model.js';
import type { RecordChange, ReferencesChange } from '../../domain/records/records-repository.port.js';
import type { RecordColumns, RecordsTable } from '../tables/records.js';

/**
 * The one place records are converted between the domain's model and the `records` table:
 * JSON values are stored as text, an absent one as NULL.
 */

/** A record's row as the domain's record. Only the record's own columns are read (not company_id nor any joined column). */
export function recordToDomain(row: RecordColumns): RecordModel {
  // Every key, so that all records share one shape; an absent value is undefined.
  return {
    id: row.id,
    recordType: row.record_type,
    typeId: row.type_id,
    uid: optionalJson(row.uid),
    status: row.status,
    parentRecord: optionalJson(row.parent_record) as RecordModel['parentRecord'],
    childRecords: JSON.parse(row.child_records) as unknown[],
    instance: optionalJson(row.instance),
    fields: optionalJson(row.fields) as RecordModel['fields'],
    linked: optionalJson(row.linked) as RecordModel['linked'],
    storedViews: JSON.parse(row.views) as string[],
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/** The row of a company's record, its columns in the table's order (company_id last). */
export function recordToPersistence(companyId: string, record: RecordModel): RecordsTable {
  return {
    id: record.id,
    record_type: record.recordType,
    type_id: record.typeId,
    uid: jsonColumn(record.uid),
    status: record.status,
    parent_record: jsonColumn(record.parentRecord),
    child_records: JSON.stringify(record.childRecords),
    instance: jsonColumn(record.instance),
    fields: jsonColumn(record.fields),
    linked: jsonColumn(record.linked),
    views: JSON.stringify(record.storedViews),
    created_at: record.createdAt,
    updated_at: record.updatedAt,
    company_id: companyId,
  };
}

/** The columns a PATCH writes. */
export function changeToPersistence(change: RecordChange): Pick<RecordColumns, 'status' | 'fields' | 'updated_at'> {
  return { status: change.status, fields: jsonColumn(change.fields), updated_at: change.updatedAt };
}

/** The columns removing a deleted record's references writes. */
export function referencesToPersistence(change: ReferencesChange): Pick<RecordColumns, 'parent_record' | 'child_records' | 'linked' | 'updated_at'> {
  return {
    parent_record: jsonColumn(change.parentRecord),
    child_records: JSON.stringify(change.childRecords),
    linked: jsonColumn(change.linked),
    updated_at: change.updatedAt,
  };
}

const optionalJson = (text: string | null): unknown => (text === null ? undefined : JSON.parse(text));

/** An optional JSON value's column: absent as NULL, anything else (null included) as JSON text. */
function jsonColumn(value: unknown): string | null {
  return value === undefined ? null : JSON.stringify(value);
}
