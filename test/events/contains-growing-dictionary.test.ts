import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { SCANNED_DICTIONARY_VALUES } from '../../src/fast-path/contains-matches.js';
import { describeEachDatabase } from '../helpers/databases.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { anEvent, ingestOk, listIds } from './event-fixtures.js';

// The dictionary behind __contains grows with every ingest that brings a new value: a substring
// finds what later ingests added, each company's values stay its own, and a key with more than a
// thousand distinct values is matched the same way. On PostgreSQL a key with at most
// SCANNED_DICTIONARY_VALUES values is compared value by value and a larger one through the
// trigram index: the answers across that edge are the same.
describeEachDatabase('__contains as the dictionary grows', (kind) => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp(kind);
    await ingestOk(t, 'kept', [anEvent({ id: 'k1', flow_key: 'onboarding', step_key: 'collect' })]);
    await ingestOk(t, 'other', [anEvent({ id: 'o1', flow_key: 'offboarding', step_key: 'collect' })]);
    await ingestOk(
      t,
      'large',
      Array.from({ length: 1100 }, (_, i) => anEvent({ id: `l-${String(i).padStart(4, '0')}`, flow_key: `flow-${i}`, step_key: null })),
    );
  });
  after(() => t.close());

  it('finds a value an ingest added after the substring was last asked for', async () => {
    assert.deepEqual(await listIds(t, 'kept', 'flow_key__contains=board'), ['k1']);
    assert.deepEqual(await listIds(t, 'kept', 'flow_key__contains=fresh'), []);
    await ingestOk(t, 'kept', [anEvent({ id: 'k2', flow_key: 'a-fresh-flow', step_key: 'a-fresh-step' })]);
    assert.deepEqual(await listIds(t, 'kept', 'flow_key__contains=fresh'), ['k2']);
    assert.deepEqual(await listIds(t, 'kept', 'step_key__contains=fresh'), ['k2']);
    assert.deepEqual(await listIds(t, 'kept', 'flow_key__contains=a'), ['k1', 'k2']);
  });

  it("keeps each company's dictionary apart", async () => {
    assert.deepEqual(await listIds(t, 'other', 'flow_key__contains=fresh'), []);
    assert.deepEqual(await listIds(t, 'other', 'flow_key__contains=board'), ['o1']);
    assert.deepEqual(await listIds(t, 'kept', 'flow_key__contains=offboard'), []);
  });

  it('matches a key with 1,100 distinct values, and one added to them', async () => {
    const ids = (keep: (i: number) => boolean) =>
      Array.from({ length: 1100 }, (_, i) => i)
        .filter(keep)
        .map((i) => `l-${String(i).padStart(4, '0')}`);
    for (let round = 0; round < 2; round++) {
      assert.deepEqual(
        await listIds(t, 'large', 'flow_key__contains=flow-109&limit=10000'),
        ids((i) => String(i).startsWith('109')),
      );
      assert.deepEqual(await listIds(t, 'large', 'flow_key__contains=-1099'), ['l-1099']);
      assert.deepEqual(await listIds(t, 'large', 'flow_key__contains=no-such'), []);
    }
    await ingestOk(t, 'large', [anEvent({ id: 'l-new', flow_key: 'flow-new', step_key: null })]);
    assert.deepEqual(await listIds(t, 'large', 'flow_key__contains=new'), ['l-new']);
  });

  it('finds the same values on either side of the scanned-dictionary limit', async () => {
    const value = (i: number) => `edge-${String(i).padStart(4, '0')}`;
    const atLimit = Array.from({ length: SCANNED_DICTIONARY_VALUES }, (_, i) => anEvent({ id: `e-${i}`, flow_key: value(i), step_key: null }));
    await ingestOk(t, 'edge', atLimit);
    assert.deepEqual(await listIds(t, 'edge', `flow_key__contains=${value(0)}`), ['e-0']);
    assert.deepEqual(await listIds(t, 'edge', `flow_key__contains=${value(SCANNED_DICTIONARY_VALUES - 1)}`), [`e-${SCANNED_DICTIONARY_VALUES - 1}`]);
    assert.deepEqual(await listIds(t, 'edge', 'flow_key__contains=zz'), []);
    // Two values more, the only match sorting last: a scan cut at the limit would not reach it.
    await ingestOk(t, 'edge', [
      anEvent({ id: 'e-next', flow_key: value(SCANNED_DICTIONARY_VALUES), step_key: null }),
      anEvent({ id: 'e-last', flow_key: 'zz-last', step_key: null }),
    ]);
    assert.deepEqual(await listIds(t, 'edge', 'flow_key__contains=zz'), ['e-last']);
    assert.deepEqual(await listIds(t, 'edge', `flow_key__contains=${value(0)}`), ['e-0']);
    assert.equal((await listIds(t, 'edge', 'flow_key__contains=edge-&limit=10000')).length, SCANNED_DICTIONARY_VALUES + 1);
  });
});
