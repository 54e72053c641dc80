import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { describeEachDatabase } from '../helpers/databases.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { anEvent, compareCodePoints, EVENT_FIELDS, filterDataset, ingestOk, listEvents, listIds, type EventInput } from './event-fixtures.js';

const COMPANY = 'acme';

/** Events with duplicate values in every field, so that order ties are broken by id. */
function orderDataset(): EventInput[] {
  const base = filterDataset();
  return [
    ...base,
    anEvent({ id: 'e13', created_at: base[0]!.created_at, updated_at: '2026-02-01T00:00:00.000Z', excluded: true, like_value: 1, seconds_active: 12.25 }),
    anEvent({ id: 'e00', created_at: base[0]!.created_at, updated_at: '2026-02-01T00:00:00.000Z', like_value: null, text: 'looks good' }),
  ];
}
const DATASET = orderDataset();

function compareValues(a: unknown, b: unknown): number {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  if (typeof a === 'boolean' && typeof b === 'boolean') return Number(a) - Number(b);
  return compareCodePoints(String(a), String(b));
}

/** The reference order: by the field in the direction, nulls last either way, then id in the same direction. */
function expectedOrder(field: string, direction: 'asc' | 'desc', events: readonly EventInput[] = DATASET): string[] {
  const sign = direction === 'asc' ? 1 : -1;
  const value = (event: EventInput) => (field === 'company_id' ? COMPANY : event[field]);
  return [...events]
    .sort((a, b) => {
      const [x, y] = [value(a) ?? null, value(b) ?? null];
      if (x === null && y !== null) return 1;
      if (y === null && x !== null) return -1;
      const byField = x === null ? 0 : sign * compareValues(x, y);
      return byField || sign * compareCodePoints(String(a.id), String(b.id));
    })
    .map((event) => String(event.id));
}

describeEachDatabase('GET /v1/events order, limit and page', (kind) => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp(kind);
    await ingestOk(t, COMPANY, DATASET);
  });
  after(() => t.close());

  describe('order_by', () => {
    for (const field of EVENT_FIELDS) {
      for (const direction of ['asc', 'desc'] as const) {
        it(`${direction === 'desc' ? '-' : ''}${field}`, async () => {
          const ids = await listIds(t, COMPANY, `order_by=${direction === 'desc' ? '-' : ''}${field}`);
          assert.deepEqual(ids, expectedOrder(field, direction));
        });
      }
    }

    it('defaults to created_at ascending with ties by id', async () => {
      assert.deepEqual(await listIds(t, COMPANY), expectedOrder('created_at', 'asc'));
      assert.deepEqual((await listIds(t, COMPANY)).slice(0, 3), ['e00', 'e01', 'e13']);
    });

    it('puts nulls last in both directions', async () => {
      for (const query of ['order_by=flow_session', 'order_by=-flow_session', 'order_by=like_value', 'order_by=-like_value']) {
        const response = await listEvents(t, COMPANY, query);
        const values = response
          .json()
          .results.map((event: { flow_session: unknown; like_value: unknown }) => (query.includes('flow_session') ? event.flow_session : event.like_value));
        const firstNull = values.indexOf(null);
        assert.ok(firstNull > 0, query);
        assert.ok(
          values.slice(firstNull).every((value: unknown) => value === null),
          `${query}: ${JSON.stringify(values)}`,
        );
      }
    });

    it('breaks ties by id in the direction of the order', async () => {
      const ascending = await listIds(t, COMPANY, 'order_by=updated_at');
      const descending = await listIds(t, COMPANY, 'order_by=-updated_at');
      assert.deepEqual(ascending.slice(-2), ['e00', 'e13']);
      assert.deepEqual(descending.slice(0, 2), ['e13', 'e00']);
    });

    it('combines with filters and paging', async () => {
      const filtered = DATASET.filter((event) => event.version_key === 'v1');
      const all = expectedOrder('seconds_active', 'desc', filtered);
      assert.deepEqual(await listIds(t, COMPANY, 'version_key=v1&order_by=-seconds_active'), all);
      assert.deepEqual(await listIds(t, COMPANY, 'version_key=v1&order_by=-seconds_active&limit=2&page=2'), all.slice(2, 4));
    });
  });

  describe('limit and page', () => {
    it('returns 100 by default, at most limit, and count is the number returned', async () => {
      const response = await listEvents(t, COMPANY, 'limit=5');
      assert.equal(response.json().count, 5);
      assert.equal(response.json().results.length, 5);
      assert.equal((await listEvents(t, COMPANY)).json().count, DATASET.length);
      assert.equal((await listEvents(t, COMPANY, 'limit=1')).json().count, 1);
      assert.equal((await listEvents(t, COMPANY, 'limit=10000')).json().count, DATASET.length);
    });

    it('pages with offset (page - 1) * limit, and a page past the end is empty', async () => {
      const all = expectedOrder('created_at', 'asc');
      assert.deepEqual(await listIds(t, COMPANY, 'limit=4&page=1'), all.slice(0, 4));
      assert.deepEqual(await listIds(t, COMPANY, 'limit=4&page=2'), all.slice(4, 8));
      assert.deepEqual(await listIds(t, COMPANY, 'limit=4&page=4'), all.slice(12, 16));
      const past = await listEvents(t, COMPANY, 'limit=4&page=5');
      assert.equal(past.statusCode, 200);
      assert.deepEqual(past.json(), { count: 0, results: [] });
      assert.deepEqual(await listIds(t, COMPANY, 'page=2'), []);
      assert.deepEqual(await listIds(t, COMPANY, 'order_by=-created_at&limit=3&page=2'), expectedOrder('created_at', 'desc').slice(3, 6));
    });
  });

  describe('response shape', () => {
    it('has every Event field, version_object only when the event has one', async () => {
      await ingestOk(t, 'shapes', [
        anEvent({ id: 'absent' }),
        anEvent({ id: 'null', version_object: null }),
        anEvent({ id: 'object', version_object: { steps: [{ key: 'a', 'quote"': 'ü\u2028' }], n: 1.5, ok: true } }),
        anEvent({ id: 'scalar', version_object: 'v3' }),
      ]);
      const response = await listEvents(t, 'shapes', 'order_by=id');
      assert.equal(response.statusCode, 200);
      assert.match(String(response.headers['content-type']), /^application\/json/);
      const [absent, nullObject, object, scalar] = response.json().results;
      for (const event of [absent, nullObject, object, scalar]) {
        assert.deepEqual(
          Object.keys(event).filter((key) => key !== 'version_object'),
          [...EVENT_FIELDS],
        );
      }
      assert.ok(!('version_object' in absent));
      assert.equal(nullObject.version_object, null);
      assert.deepEqual(object.version_object, { steps: [{ key: 'a', 'quote"': 'ü\u2028' }], n: 1.5, ok: true });
      assert.equal(scalar.version_object, 'v3');
      assert.equal(object.company_id, 'shapes');
      assert.equal(object.excluded, false);
      assert.equal(typeof object.flow_session, 'number');
      assert.equal(object.seconds_active, 1.5);
    });

    it('streams a large page as valid JSON', async () => {
      const many = Array.from({ length: 1203 }, (_, i) =>
        anEvent({ id: `bulk-${String(i).padStart(5, '0')}`, text: i % 7 === 0 ? `line\n"${i}"` : null, version_object: { i } }),
      );
      await ingestOk(t, 'bulk', many);
      const response = await listEvents(t, 'bulk', 'limit=10000&order_by=id');
      assert.equal(response.statusCode, 200);
      const body = response.json();
      assert.equal(body.count, 1203);
      assert.deepEqual(
        body.results.map((event: { id: string }) => event.id),
        many.map((event) => event.id),
      );
      assert.equal(body.results[700].text, 'line\n"700"');
      assert.deepEqual(body.results[1202].version_object, { i: 1202 });
      const page = await listEvents(t, 'bulk', 'limit=500&page=3&order_by=id');
      assert.equal(page.json().count, 203);
    });
  });
});
