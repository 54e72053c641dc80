import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { describeEachDatabase } from '../helpers/databases.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { anEvent, compareCodePoints, ingestOk, listIds, type EventInput } from './event-fixtures.js';

const COMPANY = 'many-values';
// 600 distinct flow keys, some events without one, created in an order unrelated to the key.
const DATASET: EventInput[] = Array.from({ length: 660 }, (_, i) =>
  anEvent({
    id: `m-${String(i).padStart(4, '0')}`,
    flow_key: i < 600 ? `k-${(i * 7) % 600}` : null,
    created_at: new Date(Date.UTC(2026, 0, 1) + ((i * 389) % 660) * 1000).toISOString(),
    seconds_active: i % 5 === 0 ? null : (i * 13) % 17,
  }),
);

function expected(needle: string, order: 'created_at' | '-seconds_active'): string[] {
  const matching = DATASET.filter((event) => typeof event.flow_key === 'string' && (event.flow_key as string).includes(needle));
  const byId = (a: EventInput, b: EventInput) => compareCodePoints(String(a.id), String(b.id));
  if (order === 'created_at') matching.sort((a, b) => compareCodePoints(String(a.created_at), String(b.created_at)) || byId(a, b));
  else {
    matching.sort((a, b) => {
      const [x, y] = [a.seconds_active as number | null, b.seconds_active as number | null];
      if (x === null || y === null) return x === y ? -byId(a, b) : x === null ? 1 : -1;
      return y - x || -byId(a, b);
    });
  }
  return matching.map((event) => String(event.id));
}

describeEachDatabase('__contains matching many distinct values', (kind) => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp(kind);
    await ingestOk(t, COMPANY, DATASET);
  });
  after(() => t.close());

  // 'k-' matches 600 values (a subquery), 'k-1' 111 (an IN list), 'k-12' 11 (merged per value), 'k-599' one.
  for (const needle of ['k-', 'k-1', 'k-12', 'k-599']) {
    for (const order of ['created_at', '-seconds_active'] as const) {
      it(`flow_key__contains=${needle}&order_by=${order}, paged`, async () => {
        const all = expected(needle, order);
        assert.ok(all.length > 0);
        const query = `flow_key__contains=${needle}&order_by=${order}`;
        assert.deepEqual(await listIds(t, COMPANY, `${query}&limit=10000`), all);
        assert.deepEqual(await listIds(t, COMPANY, `${query}&limit=7&page=3`), all.slice(14, 21));
        assert.deepEqual(await listIds(t, COMPANY, `${query}&limit=50&page=2`), all.slice(50, 100));
      });
    }
  }
});
