/** The date the console's hints and messages give as an example. */
export const TIMESTAMP_EXAMPLE = '2026-12-31';

// What the API's timestamp filters take (src/lib/timestamps.ts): a date, or a date-time with Z or an offset.
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}([Tt]\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?([Zz]|[+-]\d{2}:?\d{2}))?$/;

/** Whether the API would take the value as a timestamp filter; checked first so the message can be plain words. */
export function isTimestampFilter(value: string): boolean {
  return TIMESTAMP.test(value) && !Number.isNaN(Date.parse(value.length === 10 ? `${value}T00:00:00Z` : value.toUpperCase()));
}

const REASONS: [RegExp, (label: string, match: RegExpExecArray) => string][] = [
  [
    /^query parameter '([^']+)' must be an ISO 8601/,
    (label) => `${label}: enter a date such as ${TIMESTAMP_EXAMPLE}, or a date and time such as ${TIMESTAMP_EXAMPLE}T17:00Z.`,
  ],
  [/^query parameter '([^']+)' must be an integer from (\d+) to (\d+)/, (label, match) => `${label}: enter a whole number from ${match[2]} to ${match[3]}.`],
  [/^query parameter '([^']+)' must be an integer/, (label) => `${label}: enter a whole number, such as 3.`],
];

/**
 * The API's refusal of a query in the words of the page: each reason that names a parameter the
 * page labels becomes a sentence about that input; any other reason is kept as the API gave it.
 */
export function plainQueryMessage(message: string, labels: Readonly<Record<string, string>>): string {
  return message
    .split('; ')
    .map((reason) => {
      for (const [pattern, words] of REASONS) {
        const match = pattern.exec(reason);
        if (match) return words(labels[match[1]!] ?? labelOf(match[1]!), match);
      }
      return reason;
    })
    .join(' ');
}

/** `flow_session__gt` → "Flow session". */
function labelOf(param: string): string {
  const words = param.replace(/__\w+$/, '').replace(/_/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}
