import './date-time-text.css';

// One format on every screen: the reader's locale and time zone, the zone named.
const DATE_TIME = new Intl.DateTimeFormat(undefined, {
  year: 'numeric',
  month: 'short',
  day: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  timeZoneName: 'short',
});
// A calendar date (a check's expected delivery) has no time of day, so no zone to convert to.
const DATE_ONLY = new Intl.DateTimeFormat(undefined, { year: 'numeric', month: 'short', day: 'numeric', timeZone: 'UTC' });
const CALENDAR_DATE = /^\d{4}-\d{2}-\d{2}$/;

/** A timestamp (or a YYYY-MM-DD date) as the console shows every date; the value itself when it is not one. */
export function formatDateTime(value: string): string {
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return value;
  return (CALENDAR_DATE.test(value) ? DATE_ONLY : DATE_TIME).format(date);
}

/** A timestamp in the console's one format, in a <time> element carrying the exact value. */
export function DateTimeText({ value }: { value: string | null | undefined }) {
  if (!value) return <span class="muted">—</span>;
  return (
    <time class="date-time-text" dateTime={value} title={value}>
      {formatDateTime(value)}
    </time>
  );
}
