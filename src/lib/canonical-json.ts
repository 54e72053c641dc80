/**
 * One text per JSON value: object keys sorted by code point, no whitespace. Two bodies that
 * differ only in formatting or key order have the same canonical text. `undefined` (no body)
 * has a text of its own, distinct from every JSON value.
 */
export function canonicalJson(value: unknown): string {
  if (value === undefined) return '~';
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map((item) => (item === undefined ? 'null' : canonicalJson(item))).join(',')}]`;
  const entries = Object.keys(value)
    .filter((key) => (value as Record<string, unknown>)[key] !== undefined)
    .sort()
    .map((key) => `${JSON.stringify(key)}:${canonicalJson((value as Record<string, unknown>)[key])}`);
  return `{${entries.join(',')}}`;
}
