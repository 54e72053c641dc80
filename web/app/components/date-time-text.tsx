import './date-time-text.css';

/** An ISO 8601 timestamp shown short and in UTC, with the full value in a <time> element. */
export function DateTimeText({ value }: { value: string | null | undefined }) {
  if (!value) return <span class="muted">—</span>;
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return <span>{value}</span>;
  return (
    <time class="date-time-text" dateTime={value} title={value}>
      {date.toISOString().slice(0, 16).replace('T', ' ')} UTC
    </time>
  );
}
