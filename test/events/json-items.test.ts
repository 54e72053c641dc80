import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { JsonItemsError, readJsonItems, type JsonItem, type JsonItemsFormat } from '../../src/lib/json-items.js';

type ReadItem = { position: number; value?: unknown; problem?: string };

async function readAll(chunks: (string | Buffer)[], format: JsonItemsFormat): Promise<ReadItem[]> {
  const items: ReadItem[] = [];
  for await (const item of readJsonItems(chunks, format)) items.push(item as JsonItem & ReadItem);
  return items;
}

/** The items that could not be read, as [position, problem]. */
async function problems(chunks: (string | Buffer)[], format: JsonItemsFormat): Promise<[number, string][]> {
  return (await readAll(chunks, format)).flatMap((item) => (item.problem === undefined ? [] : [[item.position, item.problem] as [number, string]]));
}

async function failure(chunks: (string | Buffer)[], format: JsonItemsFormat): Promise<JsonItemsError> {
  try {
    await readAll(chunks, format);
  } catch (error) {
    assert.ok(error instanceof JsonItemsError, String(error));
    return error;
  }
  assert.fail('expected a JsonItemsError');
}

/** Splits text into chunks at the given cut points (as UTF-8 bytes, so multi-byte characters get split too). */
function cut(text: string, cuts: number[]): Buffer[] {
  const bytes = Buffer.from(text, 'utf8');
  const points = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
  const chunks: Buffer[] = [];
  let start = 0;
  for (const point of points) {
    chunks.push(bytes.subarray(start, point));
    start = point;
  }
  chunks.push(bytes.subarray(start));
  return chunks;
}

const jsonValue = fc.jsonValue({ maxDepth: 3 });

describe('readJsonItems', () => {
  it('reads a JSON array the way JSON.parse does, however the bytes are chunked', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(jsonValue, { maxLength: 8 }), fc.array(fc.nat(), { maxLength: 12 }), fc.boolean(), async (values, cuts, pretty) => {
        const text = pretty ? JSON.stringify(values, null, 2) : JSON.stringify(values);
        const items = await readAll(cut(text, cuts), 'array');
        assert.deepEqual(
          items.map((item) => item.value),
          JSON.parse(text) as unknown,
        );
        assert.deepEqual(
          items.map((item) => item.position),
          values.map((_, i) => i),
        );
      }),
      { numRuns: 300 },
    );
  });

  it('reads NDJSON line by line, however the bytes are chunked', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(jsonValue, { maxLength: 8 }), fc.array(fc.nat(), { maxLength: 12 }), async (values, cuts) => {
        const text = values.map((value) => JSON.stringify(value)).join('\r\n');
        const items = await readAll(cut(text, cuts), 'ndjson');
        assert.deepEqual(
          items.map((item) => item.value),
          values.map((value) => JSON.parse(JSON.stringify(value))),
        );
        assert.deepEqual(
          items.map((item) => item.position),
          values.map((_, i) => i + 1),
        );
      }),
      { numRuns: 300 },
    );
  });

  it('keeps brackets, commas and escapes inside strings', async () => {
    const values = [{ a: '],[{}"\\' }, ['x', { b: '\\"' }], 'a,b', 12.5e-3, null, true];
    assert.deepEqual(
      (await readAll([JSON.stringify(values)], 'array')).map((item) => item.value),
      values,
    );
  });

  it('counts blank lines in NDJSON line numbers', async () => {
    const items = await readAll(['\n{"a":1}\n\n', '{"a":2}'], 'ndjson');
    assert.deepEqual(
      items.map((item) => [item.position, item.value]),
      [
        [2, { a: 1 }],
        [4, { a: 2 }],
      ],
    );
  });

  it('names the place of malformed input, reading on past a bad item', async () => {
    const ndjson = await readAll(['{"a":1}\n{"a":}\n{"a":3}\n[\n'], 'ndjson');
    assert.deepEqual(
      ndjson.map((item) => [item.position, item.value ?? 'bad']),
      [
        [1, { a: 1 }],
        [2, 'bad'],
        [3, { a: 3 }],
        [4, 'bad'],
      ],
    );
    assert.match(ndjson[1]!.problem!, /^malformed JSON/);
    const array = await readAll(['[{"a":1},{"a":},{"a":3},tru]'], 'array');
    assert.deepEqual(
      array.map((item) => [item.position, item.value ?? 'bad']),
      [
        [0, { a: 1 }],
        [1, 'bad'],
        [2, { a: 3 }],
        [3, 'bad'],
      ],
    );
    assert.equal((await failure(['[1,,2]'], 'array')).position, 1);
    assert.equal((await failure(['[1,]'], 'array')).position, 1);
    assert.equal((await failure(['[{"a":1}}]'], 'array')).position, 0);
    assert.equal((await failure(['[1, 2'], 'array')).position, 1);
    assert.equal((await failure(['{"a":1}'], 'array')).position, null);
    assert.equal((await failure(['[1] 2'], 'array')).position, null);
    assert.equal((await failure(['   '], 'array')).position, null);
  });

  it('refuses bytes that are not UTF-8 as a problem of their item, naming the byte, and reads on', async () => {
    const bad = Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0x22, 0x7d]); // {"a":"<FF>"}
    const ndjson = [Buffer.from('{"a":1}\n'), bad, Buffer.from('\n{"a":2}\n')];
    assert.deepEqual(await problems(ndjson, 'ndjson'), [[2, 'not valid UTF-8 (at byte 14 of the body)']]);
    assert.deepEqual(
      (await readAll(ndjson, 'ndjson')).map((item) => item.position),
      [1, 2, 3],
    );
    const array = [Buffer.from('[{"a":1}, '), bad, Buffer.from(', {"a":2}]')];
    assert.deepEqual(await problems(array, 'array'), [[1, 'not valid UTF-8 (at byte 16 of the body)']]);
    // A truncated character split over two chunks is still one good character.
    const euro = Buffer.from('["€"]');
    assert.deepEqual(await readAll([euro.subarray(0, 3), euro.subarray(3)], 'array'), [{ position: 0, value: '€' }]);
  });

  it('names the line and byte of bytes that are not UTF-8 among good lines of one chunk', async () => {
    const body = Buffer.concat([Buffer.from('{"a":1}\r\n{"a":"'), Buffer.from([0xff]), Buffer.from('"}\n{"a":3}\n{"a":4}')]);
    assert.deepEqual(await problems([body], 'ndjson'), [[2, 'not valid UTF-8 (at byte 15 of the body)']]);
    assert.deepEqual(
      (await readAll([body, Buffer.from('\n\n{"a":6}\n')], 'ndjson')).map((item) => [item.position, item.value ?? 'bad']),
      [
        [1, { a: 1 }],
        [2, 'bad'],
        [3, { a: 3 }],
        [4, { a: 4 }],
        [6, { a: 6 }],
      ],
    );
  });

  it('drops a byte order mark at the start of an NDJSON line', async () => {
    const items = await readAll(['\ufeff{"a":1}\n\ufeff{"a":2}\n'], 'ndjson');
    assert.deepEqual(
      items.map((item) => [item.position, item.value]),
      [
        [1, { a: 1 }],
        [2, { a: 2 }],
      ],
    );
  });

  it('reads nothing from an empty NDJSON body or an empty array', async () => {
    assert.deepEqual(await readAll([], 'ndjson'), []);
    assert.deepEqual(await readAll(['[', ' ', ']'], 'array'), []);
  });
});
