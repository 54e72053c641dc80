import type { RecordType, RecordsListResponse } from '@wrs/client';

export type BoardRecord = RecordsListResponse['results'][number];
export type BoardView = RecordType['views'][number];

/** The statuses a view holds: those it lists, or every status of the type when it lists none. */
export function statusesOfView(type: RecordType, view: BoardView): string[] {
  return view.statuses.length > 0 ? view.statuses : type.statuses;
}

/** The names of the first two fields of the type, which each card shows. */
export function cardFieldNames(type: RecordType): string[] {
  return type.fields.slice(0, 2).map((field) => field.field_name);
}
