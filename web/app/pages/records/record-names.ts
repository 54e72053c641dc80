import type { RecordType, RecordsListResponse } from '@wrs/client';

type ListedRecord = RecordsListResponse['results'][number];

/** The kinds of record the service knows by name; records of others may be imported too. */
export const RECORD_KINDS = ['custom', 'uccfiling', 'infoleaseasset'] as const;

/** What the table shows as a record's type: its custom type's name, or its kind. */
export function typeNameOf(record: ListedRecord, types: ReadonlyMap<string, RecordType>): { name: string; id: string | undefined } {
  const typeId = record.record_type === 'custom' && typeof record.uid === 'string' ? record.uid : undefined;
  if (typeId === undefined) return { name: record.record_type, id: undefined };
  return { name: types.get(typeId)?.name ?? typeId, id: typeId };
}

/** A view's name when a type defines it, else its ID (imported records name views of their own). */
export function viewNameOf(viewId: string, types: Iterable<RecordType>): string {
  for (const type of types) {
    const view = type.views.find((candidate) => candidate.id === viewId);
    if (view) return view.name;
  }
  return viewId;
}

/**
 * Why a filter found nothing, when it names no type or view the company defines (a record
 * imported with its own kind or view would have matched). Undefined when the names are known.
 */
export function unknownFilterMessage(filters: { record_type: string; view_id: string }, types: readonly RecordType[]): string | undefined {
  const typeIds = types.map((type) => type.id);
  const viewIds = [...new Set(types.flatMap((type) => type.views.map((view) => view.id)))];
  const problems: string[] = [];
  const type = filters.record_type.trim();
  if (type && !typeIds.includes(type) && !(RECORD_KINDS as readonly string[]).includes(type)) {
    problems.push(`There is no record type “${type}”. This company's types: ${listOf(typeIds)}; kinds: ${RECORD_KINDS.join(', ')}.`);
  }
  const view = filters.view_id.trim();
  if (view && !viewIds.includes(view)) problems.push(`There is no view “${view}”. This company's views: ${listOf(viewIds)}.`);
  return problems.length > 0 ? problems.join(' ') : undefined;
}

const listOf = (names: readonly string[]) => (names.length > 0 ? names.join(', ') : 'none');
