import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { batchFreshReads, shareFreshReads } from '../../src/lib/fresh-read-batches.js';

/** A read answered by hand: each call is recorded with the value the store held when it began. */
function controlledStore() {
  let value = 0;
  const begun: { key: string; saw: number; answer: () => void; fail: (error: Error) => void }[] = [];
  const read = (key: string) =>
    new Promise<number>((resolve, reject) => {
      const saw = value;
      begun.push({ key, saw, answer: () => resolve(saw), fail: reject });
    });
  return {
    read,
    begun,
    write: () => ++value,
  };
}

const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('shareFreshReads', () => {
  it('starts a read for a caller when none of its key is under way', async () => {
    const store = controlledStore();
    const current = shareFreshReads(store.read);
    const first = current('a');
    assert.equal(store.begun.length, 1);
    store.begun[0]!.answer();
    assert.equal(await first, 0);
    const second = current('a');
    assert.equal(store.begun.length, 2, 'the read after an answered one is a new read');
    store.begun[1]!.answer();
    assert.equal(await second, 0);
  });

  it('never answers a caller from a read begun before it called, even when a write came between', async () => {
    const store = controlledStore();
    const current = shareFreshReads(store.read);
    const early = current('a');
    // Committed after the first read began: a caller coming after it must see it.
    store.write();
    const late = [current('a'), current('a'), current('a')];
    assert.equal(store.begun.length, 1, 'the callers that came during the read wait, they do not start their own');
    store.begun[0]!.answer();
    assert.equal(await early, 0);
    await turn();
    assert.equal(store.begun.length, 2, 'one read for all who waited, begun once the first ended');
    assert.equal(store.begun[1]!.saw, 1);
    store.begun[1]!.answer();
    assert.deepEqual(await Promise.all(late), [1, 1, 1]);
  });

  it('keeps the keys apart', async () => {
    const store = controlledStore();
    const current = shareFreshReads(store.read);
    const a = current('a');
    const b = current('b');
    assert.deepEqual(
      store.begun.map((read) => read.key),
      ['a', 'b'],
    );
    store.begun[1]!.answer();
    store.begun[0]!.answer();
    assert.deepEqual(await Promise.all([a, b]), [0, 0]);
  });

  it('gives a failed read’s error to its own callers only, and still reads for those waiting', async () => {
    const store = controlledStore();
    const current = shareFreshReads(store.read);
    const failing = current('a');
    const waiting = current('a');
    store.begun[0]!.fail(new Error('connection lost'));
    await assert.rejects(failing, /connection lost/);
    await turn();
    assert.equal(store.begun.length, 2);
    store.write();
    store.begun[1]!.answer();
    assert.equal(await waiting, 0, 'answered by its own read');
  });

  it('turns a read that throws at once into a rejection', async () => {
    const current = shareFreshReads((key: string): Promise<number> => {
      throw new Error(`no ${key}`);
    });
    await assert.rejects(current('a'), /no a/);
    await assert.rejects(current('a'), /no a/, 'nothing left under way after the throw');
  });

  it('reads afresh after the last caller is answered, however many rounds came before', async () => {
    const store = controlledStore();
    const current = shareFreshReads(store.read);
    for (let round = 0; round < 5; round++) {
      const answers = [current('a'), current('a')];
      store.write();
      store.begun.at(-1)!.answer();
      await turn();
      store.begun.at(-1)!.answer();
      const [first, second] = await Promise.all(answers);
      assert.ok(second! > first!, 'the second caller came after the write, so its read saw it');
    }
    assert.equal(store.begun.length, 10);
  });
});

describe('batchFreshReads', () => {
  /** Rows by key, read in batches that are answered by hand. */
  function controlledTable(rows: Map<string, string>) {
    const batches: { group: string; keys: readonly string[]; answer: () => void; fail: (error: Error) => void }[] = [];
    const readBatch = (group: string, keys: readonly string[]) =>
      new Promise<(key: string) => string | undefined>((resolve, reject) => {
        const seen = new Map(keys.map((key) => [key, rows.get(`${group}/${key}`)]));
        batches.push({ group, keys, answer: () => resolve((key) => seen.get(key)), fail: reject });
      });
    return { readBatch, batches };
  }

  it('reads the keys asked for during a read in one read after it, each distinct key once', async () => {
    const rows = new Map([
      ['acme/r1', 'one'],
      ['acme/r2', 'two'],
    ]);
    const table = controlledTable(rows);
    const get = batchFreshReads(table.readBatch);
    const first = get('acme', 'r1');
    const during = [get('acme', 'r2'), get('acme', 'r1'), get('acme', 'r9'), get('acme', 'r2')];
    assert.deepEqual(
      table.batches.map((batch) => batch.keys),
      [['r1']],
    );
    rows.set('acme/r9', 'written during the first read');
    table.batches[0]!.answer();
    assert.equal(await first, 'one');
    await turn();
    assert.deepEqual(table.batches[1]!.keys, ['r2', 'r1', 'r9']);
    table.batches[1]!.answer();
    assert.deepEqual(await Promise.all(during), ['two', 'one', 'written during the first read', 'two']);
  });

  it('reads each group on its own', async () => {
    const table = controlledTable(new Map([['globex/r1', 'theirs']]));
    const get = batchFreshReads(table.readBatch);
    const acme = get('acme', 'r1');
    const globex = get('globex', 'r1');
    assert.deepEqual(
      table.batches.map((batch) => [batch.group, batch.keys]),
      [
        ['acme', ['r1']],
        ['globex', ['r1']],
      ],
    );
    for (const batch of table.batches) batch.answer();
    assert.deepEqual(await Promise.all([acme, globex]), [undefined, 'theirs']);
  });

  it('fails every caller of a failed read, and only them', async () => {
    const table = controlledTable(new Map([['acme/r1', 'one']]));
    const get = batchFreshReads(table.readBatch);
    const first = get('acme', 'r1');
    const second = [get('acme', 'r1'), get('acme', 'r2')];
    table.batches[0]!.answer();
    assert.equal(await first, 'one');
    await turn();
    const third = get('acme', 'r1');
    table.batches[1]!.fail(new Error('statement timeout'));
    for (const answer of second) await assert.rejects(answer, /statement timeout/);
    await turn();
    assert.equal(table.batches.length, 3, 'the caller that came during the failed read is read for after it');
    table.batches[2]!.answer();
    assert.equal(await third, 'one');
  });

  it('rejects only the key whose answer throws', async () => {
    const get = batchFreshReads(async (_group: string, _keys: readonly string[]) => (key: string) => {
      if (key === 'bad') throw new Error('not a row');
      return key.toUpperCase();
    });
    const slow = get('acme', 'first');
    const [good, bad] = [get('acme', 'good'), get('acme', 'bad')];
    assert.equal(await slow, 'FIRST');
    assert.equal(await good, 'GOOD');
    await assert.rejects(bad, /not a row/);
  });
});
