/**
 * Timestamps are stored and returned as ISO 8601 UTC strings with milliseconds
 * (`2026-11-21T15:04:05.123Z`). That fixed-width form sorts lexically in time order on both
 * databases, which is why storage keeps it as text.
 */
export function toIsoTimestamp(value: Date | string | number): string {
  return new Date(value).toISOString();
}

const DATE_ONLY = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?([Zz]|[+-]\d{2}:?\d{2})$/;

export function isRealCalendarDate(year: number, month: number, day: number): boolean {
  if (month < 1 || month > 12 || day < 1) return false;
  const daysInMonth = new Date(Date.UTC(year, month, 0)).getUTCDate();
  return day <= daysInMonth;
}

/** `YYYY-MM-DD` naming a day that exists. */
export function isCalendarDateString(value: string): boolean {
  const match = DATE_ONLY.exec(value);
  return match !== null && isRealCalendarDate(Number(match[1]), Number(match[2]), Number(match[3]));
}

export interface ParsedTimestamp {
  /** Normalised ISO 8601 UTC with milliseconds. */
  iso: string;
  /** True when the input was a bare date (midnight UTC). */
  dateOnly: boolean;
}

/**
 * Parses a filter value: an ISO 8601 date (midnight UTC) or a date-time with `Z` or an offset.
 * Returns null for anything else, including impossible dates and times.
 */
export function parseTimestampFilter(value: string): ParsedTimestamp | null {
  const dateMatch = DATE_ONLY.exec(value);
  if (dateMatch) {
    const [year, month, day] = [Number(dateMatch[1]), Number(dateMatch[2]), Number(dateMatch[3])];
    if (!isRealCalendarDate(year, month, day)) return null;
    return { iso: new Date(Date.UTC(year, month - 1, day)).toISOString(), dateOnly: true };
  }
  const match = DATE_TIME.exec(value);
  if (!match) return null;
  const [year, month, day, hour, minute] = [1, 2, 3, 4, 5].map((i) => Number(match[i]));
  const second = match[6] === undefined ? 0 : Number(match[6]);
  if (!isRealCalendarDate(year!, month!, day!) || hour! > 23 || minute! > 59 || second > 59) return null;
  const offset = match[8]!;
  if (offset !== 'Z' && offset !== 'z') {
    const digits = offset.replace(':', '');
    if (Number(digits.slice(1, 3)) > 23 || Number(digits.slice(3, 5)) > 59) return null;
  }
  const millis = Date.parse(value.replace(/t/, 'T').replace(/z$/, 'Z'));
  if (Number.isNaN(millis)) return null;
  return { iso: new Date(millis).toISOString(), dateOnly: false };
}
