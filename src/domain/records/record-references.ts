import { isPlainObject } from '../record-types/definition.js';
import type { StoredRecord } from './stored-record.js';

/** The columns that may name another record: a reference is an object whose `id` is that record's. */
export type RecordReferences = Readonly<Pick<StoredRecord, 'parent_record' | 'child_records' | 'linked'>>;

const refersTo = (value: unknown, recordId: string): boolean => isPlainObject(value) && value.id === recordId;

/**
 * A record's references with those to `recordId` taken out: a parent that is it becomes null,
 * child records that are it leave the list, and linked objects that are it leave their source
 * (a source left empty goes too). Undefined when the record names it nowhere.
 */
export function withoutReferencesTo(row: RecordReferences, recordId: string): RecordReferences | undefined {
  let changed = false;
  let parent = row.parent_record;
  if (parent !== null && refersTo(JSON.parse(parent), recordId)) {
    parent = 'null';
    changed = true;
  }
  const children = JSON.parse(row.child_records) as unknown[];
  const keptChildren = children.filter((child) => !refersTo(child, recordId));
  if (keptChildren.length !== children.length) changed = true;

  let linked = row.linked;
  const sources = linked === null ? undefined : (JSON.parse(linked) as unknown);
  if (isPlainObject(sources)) {
    const kept: Record<string, unknown> = {};
    let linkedChanged = false;
    for (const [source, objects] of Object.entries(sources)) {
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
      linked = JSON.stringify(kept);
      changed = true;
    }
  }
  if (!changed) return undefined;
  return { parent_record: parent, child_records: keptChildren.length === children.length ? row.child_records : JSON.stringify(keptChildren), linked };
}
