/** An ISO 8601 instant as a datetime-local input shows it, in the browser's time zone. */
export function localInputOf(iso: string): string {
  const date = new Date(iso);
  if (iso === '' || Number.isNaN(date.getTime())) return '';
  const pad = (value: number, width = 2) => String(value).padStart(width, '0');
  const base = `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`;
  return date.getMilliseconds() === 0 ? base : `${base}.${pad(date.getMilliseconds(), 3)}`;
}

/** A datetime-local value (local time, no zone) as the ISO 8601 UTC instant the API takes. */
export function isoOfLocalInput(local: string): string {
  const date = new Date(local);
  return local === '' || Number.isNaN(date.getTime()) ? '' : date.toISOString();
}
