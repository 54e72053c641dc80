import { isPlainObject } from '../record-types/definition.js';
import type { RecordModel } from './record-model.js';

/** What of a record may name another record: a reference is an object whose `id` is that record's. */
export type RecordReferences = Pick<RecordModel, 'parentRecord' | 'childRecords' | 'linked'>;

const refersTo = (value: unknown, recordId: string): boolean => isPlainObject(value) && value.id === recordId;

/**
 * A record's references with those to `recordId` taken out: a parent that is it becomes null,
 * child records that are it leave the list, and linked objects that are it leave their source
 * (a source left empty goes too). Undefined when the record names it nowhere.
 */
export function withoutReferencesTo(record: RecordReferences, recordId: string): RecordReferences | undefined {
  let changed = false;
  let parentRecord = record.parentRecord;
  if (parentRecord !== undefined && refersTo(parentRecord, recordId)) {
    parentRecord = null;
    changed = true;
  }
  const childRecords = record.childRecords.filter((child) => !refersTo(child, recordId));
  if (childRecords.length !== record.childRecords.length) changed = true;

  let linked = record.linked;
  if (isPlainObject(linked)) {
    const kept: Record<string, Record<string, unknown>> = {};
    let linkedChanged = false;
    for (const [source, objects] of Object.entries(linked)) {
      if (!isPlainObject(objects)) {
        kept[source] = objects;
        continue;
      }
      const keptObjects = Object.fromEntries(Object.entries(objects).filter(([, object]) => !refersTo(object, recordId)));
      const removed = Object.keys(keptObjects).length !== Object.keys(objects).length;
      if (removed) linkedChanged = true;
      if (!removed || Object.keys(keptObjects).length > 0) kept[source] = removed ? keptObjects : objects;
    }
    if (linkedChanged) {
      linked = kept;
      changed = true;
    }
  }
  if (!changed) return undefined;
  return { parentRecord, childRecords: childRecords.length === record.childRecords.length ? record.childRecords : childRecords, linked };
}
