/**
 * The list a record was opened from (the records table with its filters, or the board), so the
 * record page's back link returns to it as it was. Kept for the tab, like the session.
 */
const KEY = 'wrs.console.list';

export interface ListReturn {
  href: string;
  label: string;
}

const RECORDS: ListReturn = { href: '/app/records', label: 'Records' };

/** Signed out: the next person starts from the unfiltered list. */
export function forgetList(): void {
  sessionStorage.removeItem(KEY);
}

export function rememberList(list: ListReturn): void {
  sessionStorage.setItem(KEY, JSON.stringify(list));
}

/** Where "back" leads from a record page: the list last shown, else the unfiltered records. */
export function lastList(): ListReturn {
  try {
    const stored = JSON.parse(sessionStorage.getItem(KEY) ?? 'null') as Partial<ListReturn> | null;
    // Only console addresses: the value is ours, but a link must never lead off the console.
    if (typeof stored?.href === 'string' && stored.href.startsWith('/app/') && typeof stored.label === 'string')
      return { href: stored.href, label: stored.label };
  } catch {
    // Not JSON: fall back.
  }
  return RECORDS;
}
