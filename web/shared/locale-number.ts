/**
 * Numbers as people write them in their locale (navigator.language): `1,250.50` in en-US,
 * `1.250,50` in de-DE, `1 250,50` in fr-FR. Intl.NumberFormat says which characters group
 * thousands and which marks the decimals; what is typed is read with those, strictly, so that
 * `1.250` is never silently read as 1.25 where the dot groups thousands.
 */
export interface NumberWriting {
  readonly locale: string;
  readonly group: string;
  readonly decimal: string;
}

/** Blanks that a locale may group with (space, no-break and narrow no-break space): people type a plain space. */
const BLANKS = /[\s\u00a0\u202f]/g;
const MINUS = /^[-\u2212]/;

export function numberWritingOf(locale?: string): NumberWriting {
  const format = new Intl.NumberFormat(locale);
  const parts = format.formatToParts(12345.6);
  return {
    locale: format.resolvedOptions().locale,
    group: parts.find((part) => part.type === 'group')?.value ?? ',',
    decimal: parts.find((part) => part.type === 'decimal')?.value ?? '.',
  };
}

/**
 * The number typed, or undefined when it is not one as the locale writes numbers. Groups are
 * optional but, when used, of three digits; the decimal mark is the locale's (a `.` is also read
 * as the decimal mark where the locale groups with blanks, as people there often type it).
 */
export function readNumber(text: string, writing: NumberWriting): number | undefined {
  let rest = text.trim();
  const negative = MINUS.test(rest);
  if (negative) rest = rest.slice(1);
  const groupIsBlank = writing.group.replace(BLANKS, '') === '';
  const decimals = groupIsBlank && writing.decimal !== '.' ? [writing.decimal, '.'] : [writing.decimal];
  const at = Math.max(...decimals.map((mark) => rest.lastIndexOf(mark)));
  const whole = at < 0 ? rest : rest.slice(0, at);
  const fraction = at < 0 ? '' : rest.slice(at + 1);
  if (at >= 0 && !/^\d+$/.test(fraction)) return undefined;
  const digits = groupIsBlank ? whole.replace(BLANKS, ' ') : whole;
  const group = groupIsBlank ? ' ' : writing.group;
  const groups = digits.split(group);
  const grouped = groups.length > 1;
  if (grouped ? !/^\d{1,3}$/.test(groups[0]!) || groups.slice(1).some((part) => !/^\d{3}$/.test(part)) : !/^\d+$/.test(digits)) {
    return undefined;
  }
  const value = Number(`${negative ? '-' : ''}${groups.join('')}${fraction ? `.${fraction}` : ''}`);
  return Number.isFinite(value) ? value : undefined;
}

/** A stored number as an input shows it in the locale: its decimal mark, no grouping, every digit kept. */
export function inputTextOf(value: number, writing: NumberWriting): string {
  return new Intl.NumberFormat(writing.locale, { useGrouping: false, maximumFractionDigits: 20 }).format(value);
}

/** A number as the locale writes it for reading, grouped: what a saved value will be shown as. */
export function displayTextOf(value: number, writing: NumberWriting): string {
  return new Intl.NumberFormat(writing.locale, { maximumFractionDigits: 20 }).format(value);
}

/** An example of a number the locale's way, for messages: `1,250.5`, `1.250,5`, `1 250,5`. */
export const exampleNumber = (writing: NumberWriting): string => displayTextOf(1250.5, writing);

let current: NumberWriting | undefined;

/** How the reader's browser writes numbers (read once). */
export const readerNumberWriting = (): NumberWriting => {
  current ??= numberWritingOf(typeof navigator === 'undefined' ? undefined : navigator.language);
  return current;
};
