import fc from 'fast-check';

/**
 * Generators of hostile HTTP input: path segments, query strings, headers and bodies. Each
 * mixes plausible values (so requests get past the first check) with the strange ones.
 */

/** Printable Latin-1: what a real HTTP header value can carry. */
const headerChar = fc
  .integer({ min: 0x20, max: 0xff })
  .filter((code) => code !== 0x7f)
  .map((code) => String.fromCharCode(code));
export const headerText = (maxLength = 60) => fc.string({ unit: headerChar, maxLength });

/** Any code units, lone surrogates and control characters included. */
const anyText = (maxLength = 40) => fc.string({ unit: 'binary', maxLength });

const longText = (min: number, max: number) => fc.integer({ min, max }).map((length) => 'x'.repeat(length));

/** Percent-encodes a string as encodeURIComponent would, but never throws on lone surrogates. */
export function encodeLoosely(text: string): string {
  try {
    return encodeURIComponent(text);
  } catch {
    return [...text].map((char) => (char.charCodeAt(0) >= 0xd800 && char.charCodeAt(0) <= 0xdfff ? '%ED%A0%80' : encodeURIComponent(char))).join('');
  }
}

const STRANGE_SEGMENTS = [
  '..',
  '.',
  '%2e%2e',
  '%2E',
  '%2F',
  '..%2F..%2Fetc%2Fpasswd',
  '%00',
  'a%00b',
  '%FF',
  '%C0%AE',
  '%E0%80',
  '%ED%A0%80',
  '%',
  '%zz',
  '%2',
  '~',
  '%20',
  '+',
  ';',
  ',',
  '*',
  "'",
  '%22',
  '%3Cscript%3E',
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'hasOwnProperty',
  'null',
  'undefined',
  '0',
  '-1',
  'NaN',
  'true',
  '%E2%80%AE',
  '%F0%9F%92%A9',
  'ǅ',
  '%C3%A9',
  'DROP%20TABLE%20records',
  "'%20OR%20'1'%3D'1",
  '%5C',
  '%7C',
  'a%2Fb',
  'a;b=c',
];

/** A path segment: hostile, encoded, unicode or very long (never a plain valid one). */
export const strangeSegment = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...STRANGE_SEGMENTS) },
  { weight: 3, arbitrary: anyText(40).map(encodeLoosely) },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme', minLength: 1, maxLength: 20 }).map(encodeLoosely) },
  { weight: 1, arbitrary: longText(100, 300) },
  { weight: 1, arbitrary: longText(300, 20_000) },
  { weight: 1, arbitrary: fc.constant('') },
);

const OPERATOR_SUFFIXES = ['__contains', '__gt', '__gte', '__lt', '__lte', '__in', '__ne', '__eq', '__', '__GT', '__contains__gt'];

const STRANGE_KEYS = [
  '__proto__',
  'constructor',
  'prototype',
  'hasOwnProperty',
  'toString',
  'valueOf',
  '',
  ' ',
  'a[b]',
  'a[]',
  'limit[]',
  'limit[0]',
  'sort_by[date_created]',
  'sort_by[send_date]',
  'sort_by[]',
  'order_by[]',
  'a.b',
  'A',
  'LIMIT',
  '%00',
  'page ',
];

const PLAUSIBLE_VALUES = [
  '',
  '1',
  '0',
  '-1',
  '2',
  '100',
  '101',
  '10000',
  '10001',
  '1e3',
  '1.5',
  '0x10',
  ' 5',
  '5 ',
  '+5',
  '05',
  '1_000',
  'NaN',
  'Infinity',
  '-Infinity',
  '9007199254740993',
  '99999999999999999999999',
  '-0',
  'true',
  'false',
  'TRUE',
  'null',
  'undefined',
  '[]',
  '{}',
  '{"date_created":"asc"}',
  '{"send_date":"desc","date_created":"asc"}',
  'asc',
  'desc',
  'date_created',
  '-date_created',
  'send_date',
  'created_at',
  '-created_at',
  'flow_session',
  '--created_at',
  'id',
  '-id',
  'version_object',
  '2026-11-21',
  '2026-11-21T15:04:05Z',
  '2026-11-21T15:04:05.123+02:00',
  '2026-02-30',
  '2026-13-01',
  '2026-11-21T25:61:00Z',
  '0000-01-01',
  '9999-12-31T23:59:59.999Z',
  '275760-09-13',
  '-000001-01-01',
  '2026-11-21T15:04:05',
  '1700000000',
  'now',
  'custom',
  'uccfiling',
  'open',
  'everything',
  'usps_first_class',
  '%',
  '%00',
  '\u0000',
  'a\u0000b',
  '\uFEFF',
  '\u202E',
  '\ud800',
  "' OR 1=1 --",
  '%25',
  '*',
  '%_',
  '\\',
  '"',
];

const queryKey = (known: readonly string[]) =>
  fc.oneof(
    { weight: known.length > 0 ? 6 : 0, arbitrary: known.length > 0 ? fc.constantFrom(...known) : fc.constant('x') },
    {
      weight: known.length > 0 ? 3 : 0,
      arbitrary: fc
        .tuple(known.length > 0 ? fc.constantFrom(...known) : fc.constant('x'), fc.constantFrom(...OPERATOR_SUFFIXES))
        .map(([key, suffix]) => key + suffix),
    },
    { weight: 2, arbitrary: fc.constantFrom(...STRANGE_KEYS) },
    { weight: 2, arbitrary: anyText(20) },
  );

const queryValue = (plausible: readonly string[]) =>
  fc.oneof(
    { weight: 5, arbitrary: fc.constantFrom(...plausible, ...PLAUSIBLE_VALUES) },
    { weight: 3, arbitrary: anyText(40) },
    { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 30 }) },
    { weight: 1, arbitrary: longText(200, 5000) },
    { weight: 1, arbitrary: longText(5000, 100_000) },
  );

/** How one pair is written in the query string. */
const pairWriter = fc.constantFrom<(key: string, value: string) => string>(
  (key, value) => `${encodeLoosely(key)}=${encodeLoosely(value)}`,
  (key, value) => `${encodeLoosely(key)}=${encodeLoosely(value)}`,
  (key, value) => `${encodeLoosely(key)}=${encodeLoosely(value)}`,
  (key) => encodeLoosely(key),
  (key, value) => `${encodeLoosely(key)}=${encodeLoosely(value).replace(/%20/g, '+')}`,
  (key, value) => `${encodeLoosely(key)}=${encodeLoosely(value).slice(0, -1)}%`,
  (key, value) => `${encodeLoosely(key)}=%zz${encodeLoosely(value)}`,
  (key, value) => `${encodeLoosely(key)}==${encodeLoosely(value)}`,
  (key, value) => `${key.replace(/[&#=%\s]/g, '')}=${value.replace(/[&#%\s]/g, '')}`,
);

/**
 * A query string (without `?`): a list of pairs, so that keys repeat, over the route's own
 * parameters, operator suffixes they may not take, strange keys and hostile values.
 */
export const fuzzQuery = (known: readonly string[], plausible: readonly string[] = []) =>
  fc
    .array(fc.tuple(queryKey(known), queryValue(plausible), pairWriter), { maxLength: 6 })
    .chain((pairs) => fc.constantFrom('&', '&', '&', '&&', ';').map((separator) => pairs.map(([key, value, write]) => write(key, value)).join(separator)));

export type JsonValue = fc.JsonValue;

const strangeJson = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }),
  fc.constantFrom<JsonValue>(
    null,
    true,
    false,
    0,
    -1,
    1.5,
    1e308,
    -1e308,
    2 ** 53 + 1,
    '',
    ' ',
    'x'.repeat(300),
    '\u0000',
    '\ud800',
    '\u202E',
    '2026-11-21',
    '2026-02-30',
    [],
    {},
    [null],
    [{}],
    { '': '' },
    JSON.parse('{"__proto__":{"x":1}}') as JsonValue,
    { constructor: { prototype: { x: 1 } } },
  ),
);

/** A valid body changed in one place: a value replaced, a key removed, or a key added. */
export function mutated(valid: JsonValue): fc.Arbitrary<JsonValue> {
  if (Array.isArray(valid)) {
    if (valid.length === 0) return fc.array(strangeJson, { maxLength: 3 });
    const items: JsonValue[] = [...valid];
    return fc.oneof(
      mutated(items[0]!).map((first): JsonValue => [first, ...items.slice(1)]),
      strangeJson.map((extra): JsonValue => [...items, extra]),
      fc.constant<JsonValue>([...items, ...items]),
    );
  }
  if (valid === null || typeof valid !== 'object') return strangeJson;
  const keys = Object.keys(valid);
  const options: fc.Arbitrary<JsonValue>[] = [
    fc
      .tuple(fc.oneof(anyText(12), fc.constantFrom('__proto__', 'constructor', 'status', 'id', 'company_id')), strangeJson)
      .map(([key, value]) => JSON.parse(JSON.stringify({ ...valid, [key]: value })) as JsonValue),
  ];
  if (keys.length > 0) {
    options.push(
      fc.tuple(fc.constantFrom(...keys), strangeJson).map(([key, value]) => ({ ...valid, [key]: value })),
      fc.constantFrom(...keys).chain((key) => mutated(valid[key]!).map((inner) => ({ ...valid, [key]: inner }))),
      fc.constantFrom(...keys).map((key) => Object.fromEntries(Object.entries(valid).filter(([name]) => name !== key))),
    );
  }
  return fc.oneof(...options);
}

const RAW_BODIES = [
  '',
  ' ',
  'null',
  '42',
  '"text"',
  'true',
  '[]',
  '{}',
  '[{}]',
  '[null]',
  '[[]]',
  '{',
  '}',
  '[',
  '{"a":1,}',
  '[1,2',
  '{"a":}',
  '{"a" 1}',
  "{'a':1}",
  '{"a":1}{"b":2}',
  '{"a":1} x',
  '\uFEFF{}',
  'NaN',
  '1e400',
  '{"a":1e400}',
  '{"a":-1e400}',
  '{"a":"\\ud800"}',
  '{"a":"\\u0000"}',
  '{"__proto__":{"polluted":1}}',
  '{"constructor":{"prototype":{"polluted":1}}}',
  '{"a":1,"a":2}',
  '\u0000',
  '\n\n\n',
  '{}\n{}',
  '[]\n',
  'undefined',
  '{"a":01}',
  '[1,]',
  '{"a":"\n"}',
];

/** Nesting deep enough to trouble a recursive reader. */
const deeplyNested = fc
  .tuple(fc.integer({ min: 50, max: 20_000 }), fc.constantFrom('array', 'object'))
  .map(([depth, kind]) => (kind === 'array' ? `${'['.repeat(depth)}${']'.repeat(depth)}` : `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`));

/** A body as sent: the raw text (undefined: no body). */
export const fuzzBody = (valid: JsonValue | undefined, ndjson: boolean) => {
  const base = valid ?? {};
  const options: Array<{ weight: number; arbitrary: fc.Arbitrary<string | undefined> }> = [
    { weight: 5, arbitrary: mutated(base).map((value) => JSON.stringify(value)) },
    { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 4 }).map((value) => JSON.stringify(value)) },
    { weight: 2, arbitrary: fc.constantFrom(...RAW_BODIES) },
    { weight: 1, arbitrary: deeplyNested },
    { weight: 1, arbitrary: anyText(200) },
    { weight: 1, arbitrary: fc.constant(undefined) },
    {
      weight: 1,
      arbitrary: fc.integer({ min: 10_000, max: 1_200_000 }).map((size) => JSON.stringify({ ...(isObject(base) ? base : {}), big: 'x'.repeat(size) })),
    },
  ];
  if (ndjson) {
    options.push({
      weight: 3,
      arbitrary: fc
        .array(
          fc.oneof(
            mutated(Array.isArray(base) ? (base[0] ?? {}) : base).map((value) => JSON.stringify(value)),
            fc.constantFrom('', '{', 'x', '[]'),
          ),
          {
            minLength: 1,
            maxLength: 5,
          },
        )
        .map((lines) => lines.join('\n')),
    });
  }
  return fc.oneof(...options);
};

const isObject = (value: unknown): value is Record<string, JsonValue> => typeof value === 'object' && value !== null && !Array.isArray(value);

export const CONTENT_TYPES = [
  'application/json',
  'application/json; charset=utf-8',
  'application/json; charset=UTF-8',
  'application/json; charset=utf-16',
  'application/json;charset=latin1',
  'APPLICATION/JSON',
  'application/json; boundary=x',
  'application/x-ndjson',
  'application/ndjson',
  'application/jsonl',
  'text/plain',
  'text/json',
  'text/html',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'application/octet-stream',
  'application/',
  '/',
  '*/*',
  'application/json, text/plain',
  ';',
  'application/vnd.api+json',
  'application/problem+json',
  'application/xml',
  'json',
];

export const fuzzContentType = fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...CONTENT_TYPES) }, { weight: 1, arbitrary: headerText(40) });

/** Extra headers a client might send, some nonsensical. */
export const fuzzExtraHeaders = fc.dictionary(
  fc.constantFrom(
    'accept',
    'accept-encoding',
    'content-encoding',
    'x-request-id',
    'x-forwarded-for',
    'x-forwarded-host',
    'x-forwarded-proto',
    'origin',
    'expect',
    'if-none-match',
    'range',
    'cookie',
    'x-http-method-override',
    'host',
    'content-language',
  ),
  fc.oneof(
    fc.constantFrom(
      'gzip',
      'br',
      'deflate',
      'identity',
      '*/*',
      'application/json',
      'text/html',
      '100-continue',
      'bytes=0-10',
      '::1',
      'evil.example',
      'DELETE',
      'https',
      'x'.repeat(2000),
    ),
    headerText(60),
  ),
  { maxKeys: 3 },
);

/**
 * Authorization headers that must not get in: garbled schemes, tokens that are malformed,
 * unsigned, badly signed, expired, without a company, or meant for the other API.
 */
export function fuzzAuthorization(candidates: readonly string[]) {
  return fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom(...candidates) },
    { weight: 1, arbitrary: headerText(80) },
    { weight: 1, arbitrary: headerText(80).map((text) => `Bearer ${text}`) },
    { weight: 1, arbitrary: fc.integer({ min: 8_000, max: 100_000 }).map((size) => `Bearer ${'a'.repeat(size)}`) },
  );
}
