import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { SCANNED_DICTIONARY_VALUES } from '../../src/fast-path/contains-matches.js';
import { describeEachDatabase } from '../helpers/databases.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { anEvent, compareCodePoints, filterDataset, ingestOk, listIds, USERS, type EventInput } from './event-fixtures.js';

const COMPANY = 'acme';
const DATASET = filterDataset();

/**
 * The same dataset in a company whose keys have more values than a `__contains` scans one by
 * one, so its substrings are found through the trigram index. The extra values are made of
 * letters that no needle below contains.
 */
const LARGE_DICTIONARY_COMPANY = 'acme-large-dictionary';
const FILLERS = Array.from({ length: SCANNED_DICTIONARY_VALUES + 20 }, (_, i) => {
  const value = [...i.toString(6).padStart(4, '0')].map((digit) => 'qwxyjk'[Number(digit)]).join('');
  return anEvent({ id: `filler-${i}`, flow_key: value, step_key: value, version_key: value, connection_key: value });
});

/** The dataset's ids that satisfy `keep`, in the default order (created_at, then id). */
function expected(keep: (event: EventInput) => boolean, dataset: readonly EventInput[] = DATASET): string[] {
  return dataset
    .filter(keep)
    .sort((a, b) => compareCodePoints(String(a.created_at), String(b.created_at)) || compareCodePoints(String(a.id), String(b.id)))
    .map((event) => String(event.id));
}

const str = (field: string) => (event: EventInput) => event[field] as string | null;
const COMPARE = {
  gt: (c: number) => c > 0,
  gte: (c: number) => c >= 0,
  lt: (c: number) => c < 0,
  lte: (c: number) => c <= 0,
} as const;

describeEachDatabase('GET /v1/events filters', (kind) => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp(kind);
    await ingestOk(t, COMPANY, DATASET);
    await ingestOk(t, LARGE_DICTIONARY_COMPANY, [...DATASET, ...FILLERS]);
  });
  after(() => t.close());

  it('returns every event of the company, oldest first, ties by id, without filters', async () => {
    assert.deepEqual(await listIds(t, COMPANY), ['e01', 'e02', 'e03', 'e04', 'e05', 'e06', 'e07', 'e08', 'e09', 'e10', 'e11', 'e12']);
  });

  describe('exact match on the bare name', () => {
    const cases: [string, string, (event: EventInput) => boolean][] = [
      ['type', 'user_flow_session_started', (e) => e.type === 'user_flow_session_started'],
      ['type', 'note', (e) => e.type === 'note'],
      ['flow_key', 'onboarding', (e) => e.flow_key === 'onboarding'],
      ['flow_key', 'Onboarding-EU', (e) => e.flow_key === 'Onboarding-EU'],
      ['flow_key', 'émigré', (e) => e.flow_key === 'émigré'],
      ['step_key', 'collect_documents', (e) => e.step_key === 'collect_documents'],
      ['selected_decision', 'Reject', (e) => e.selected_decision === 'Reject'],
      ['user_id', USERS.bob, (e) => e.user_id === USERS.bob],
      ['user_key', USERS.cy, (e) => e.user_id === USERS.cy],
      ['version_key', 'v10', (e) => e.version_key === 'v10'],
      ['connection_key', 'hubspot', (e) => e.connection_key === 'hubspot'],
      ['connection_key', 'a%b_c"d\\e', (e) => e.connection_key === 'a%b_c"d\\e'],
      ['flow_session', '2', (e) => e.flow_session === 2],
      ['flow_session', '-1', () => false],
    ];
    for (const [name, value, keep] of cases) {
      it(`${name}=${value}`, async () => {
        const ids = await listIds(t, COMPANY, new URLSearchParams({ [name]: value }).toString());
        assert.deepEqual(ids, expected(keep));
        if (value !== '-1') assert.ok(ids.length > 0, 'the case should match something');
      });
    }

    it('is case-sensitive and never matches a prefix', async () => {
      assert.deepEqual(await listIds(t, COMPANY, 'flow_key=Onboarding'), []);
      assert.deepEqual(await listIds(t, COMPANY, 'selected_decision=reject'), []);
      assert.deepEqual(await listIds(t, COMPANY, 'type=user_flow'), []);
    });

    it('matches the empty string only where the value is empty, never a null', async () => {
      assert.deepEqual(await listIds(t, COMPANY, 'flow_key='), []);
    });
  });

  describe('__contains: case-sensitive substring', () => {
    const cases: [string, string, string[] | null][] = [
      ['flow_key', 'board', ['e01', 'e02', 'e03', 'e04', 'e05']],
      ['flow_key', 'Onboard', ['e04', 'e05']],
      ['flow_key', 'onboarding', ['e01', 'e02', 'e03']],
      ['flow_key', 'EU', ['e04', 'e05']],
      ['flow_key', 'Z', ['e12']],
      ['flow_key', 'z', []],
      ['flow_key', 'migr', ['e09']],
      ['flow_key', 'é', ['e09']],
      ['flow_key', '𝔘n', ['e10']],
      ['flow_key', 'ﬀ', ['e11']],
      ['flow_key', 'o', null],
      ['flow_key', '', null],
      ['flow_key', 'no-such-flow', []],
      ['step_key', 'review', ['e03']],
      ['step_key', 'Ω', ['e09']],
      ['step_key', 'documents', null],
      ['version_key', '1', null],
      ['version_key', 'V', ['e12']],
      ['connection_key', '%', ['e11']],
      ['connection_key', '_', ['e11']],
      ['connection_key', '%b_', ['e11']],
      ['connection_key', '"d\\', ['e11']],
      ['connection_key', '\\', ['e11']],
      ['connection_key', 'sales', null],
      ['connection_key', 'SALES', []],
    ];
    for (const [name, needle, ids] of cases) {
      const keep = (e: EventInput) => typeof e[name] === 'string' && (e[name] as string).includes(needle);
      it(`${name}__contains=${JSON.stringify(needle)}`, async () => {
        const want = expected(keep);
        if (ids) assert.deepEqual(want, ids, 'the reference and the hand-written expectation agree');
        assert.deepEqual(await listIds(t, COMPANY, new URLSearchParams({ [`${name}__contains`]: needle }).toString()), want);
      });
      it(`${name}__contains=${JSON.stringify(needle)}, through the trigram index`, async () => {
        const want = expected(keep, [...DATASET, ...FILLERS]);
        // A page of up to 1,000 events is read at once; a larger limit is read in chunks.
        for (const limit of ['1000', '10000']) {
          const query = new URLSearchParams({ [`${name}__contains`]: needle, limit }).toString();
          assert.deepEqual(await listIds(t, LARGE_DICTIONARY_COMPANY, query), want, `limit=${limit}`);
        }
      });
    }

    it('pages, orders and combines a substring that matches many values', async () => {
      const keep = (e: EventInput) => typeof e.flow_key === 'string' && (e.flow_key as string).includes('o');
      const all = expected(keep);
      assert.ok(all.length >= 6);
      assert.deepEqual(await listIds(t, COMPANY, 'flow_key__contains=o&limit=2'), all.slice(0, 2));
      assert.deepEqual(await listIds(t, COMPANY, 'flow_key__contains=o&limit=2&page=3'), all.slice(4, 6));
      assert.deepEqual(await listIds(t, COMPANY, 'flow_key__contains=o&order_by=-created_at&limit=3'), [...all].reverse().slice(0, 3));
      assert.deepEqual(
        await listIds(t, COMPANY, 'flow_key__contains=o&type=user_flow_step_completed'),
        expected((e) => keep(e) && e.type === 'user_flow_step_completed'),
      );
      assert.deepEqual(
        await listIds(t, COMPANY, 'flow_key__contains=o&step_key__contains=collect'),
        expected((e) => keep(e) && typeof e.step_key === 'string' && (e.step_key as string).includes('collect')),
      );
      assert.deepEqual(await listIds(t, COMPANY, 'flow_key__contains=o&step_key__contains=no-such-step'), []);
      assert.deepEqual(await listIds(t, COMPANY, 'step_key__contains=no-such-step&flow_key__contains=o'), []);
    });

    it('answers a substring of a company that has stored nothing with an empty page', async () => {
      const response = await t.as('never-wrote', { method: 'GET', url: '/v1/events?flow_key__contains=board' });
      assert.equal(response.statusCode, 200, response.body);
      assert.deepEqual(response.json(), { count: 0, results: [] });
      assert.match(String(response.headers.etag), /^W\//);
    });
  });

  describe('__gt/__gte/__lt/__lte on strings compare by code point', () => {
    const bounds: Record<string, string[]> = {
      flow_key: ['onboarding', 'Onboarding-EU', 'invoice', 'ZZZ', 'é', 'ﬀ-flow', '𝔘'],
      step_key: ['collect_documents', 'pay', 'zz', 'Ω'],
      connection_key: ['hubspot', 'netsuite', 'a'],
      version_key: ['v1', 'v10', 'v2', 'V1'],
    };
    for (const [field, values] of Object.entries(bounds)) {
      for (const value of values) {
        for (const operator of ['gt', 'gte', 'lt', 'lte'] as const) {
          it(`${field}__${operator}=${value}`, async () => {
            const want = expected((e) => e[field] !== null && COMPARE[operator](compareCodePoints(str(field)(e)!, value)));
            const query = new URLSearchParams({ [`${field}__${operator}`]: value }).toString();
            assert.deepEqual(await listIds(t, COMPANY, query), want);
          });
        }
      }
    }

    it('orders astral characters after the end of the BMP, unlike UTF-16', async () => {
      // U+1D518 sorts after U+FB00 by code point, though its UTF-16 lead unit (0xD835) is smaller.
      assert.deepEqual(await listIds(t, COMPANY, 'flow_key__gt=%EF%AC%80'), ['e10', 'e11']);
      assert.deepEqual(await listIds(t, COMPANY, 'flow_key__gte=%F0%9D%94%98'), ['e10']);
    });
  });

  describe('flow_session compares numerically', () => {
    for (const [operator, value] of [
      ['gt', 4],
      ['gte', 4],
      ['lt', 10],
      ['lte', 10],
      ['gt', 100],
      ['gte', -5],
    ] as const) {
      it(`flow_session__${operator}=${value}`, async () => {
        const want = expected((e) => typeof e.flow_session === 'number' && COMPARE[operator]((e.flow_session as number) - value));
        assert.deepEqual(await listIds(t, COMPANY, `flow_session__${operator}=${value}`), want);
      });
    }

    it('combines a range', async () => {
      assert.deepEqual(await listIds(t, COMPANY, 'flow_session__gte=2&flow_session__lt=11'), ['e04', 'e05', 'e06', 'e07', 'e11']);
    });
  });

  describe('created_at extension', () => {
    it('compares instants, whatever the offset or form of the bound', async () => {
      assert.deepEqual(await listIds(t, COMPANY, 'created_at__gt=2026-01-01T00:00:09.000Z'), ['e11', 'e12']);
      assert.deepEqual(await listIds(t, COMPANY, 'created_at__gte=2026-01-01T00:00:09Z'), ['e09', 'e10', 'e11', 'e12']);
      assert.deepEqual(await listIds(t, COMPANY, `created_at__lt=${encodeURIComponent('2026-01-01T01:00:03+01:00')}`), ['e01', 'e02']);
      assert.deepEqual(await listIds(t, COMPANY, 'created_at__lte=2026-01-01T00:00:03.000Z'), ['e01', 'e02', 'e03']);
      assert.deepEqual(await listIds(t, COMPANY, 'created_at__gte=2026-01-01T00:00:02.001Z&created_at__lt=2026-01-01T00:00:05Z'), ['e03', 'e04']);
    });

    it('takes a bare date as midnight UTC', async () => {
      assert.equal((await listIds(t, COMPANY, 'created_at__gte=2026-01-01')).length, 12);
      assert.deepEqual(await listIds(t, COMPANY, 'created_at__lt=2026-01-01'), []);
      assert.deepEqual(await listIds(t, COMPANY, 'created_at__gt=2026-01-02'), []);
    });
  });

  describe('aliases and combinations', () => {
    it('treats user_key as user_id, and accepts both when they agree', async () => {
      const want = expected((e) => e.user_id === USERS.bob);
      assert.deepEqual(await listIds(t, COMPANY, `user_key=${USERS.bob}`), want);
      assert.deepEqual(await listIds(t, COMPANY, `user_id=${USERS.bob}&user_key=${USERS.bob}`), want);
    });

    it('ANDs every filter', async () => {
      assert.deepEqual(await listIds(t, COMPANY, `type=user_flow_decision_selected&user_id=${USERS.bob}`), ['e06']);
      assert.deepEqual(await listIds(t, COMPANY, 'flow_key=onboarding&flow_session=1&step_key__contains=review&selected_decision=Approve'), ['e03']);
      assert.deepEqual(
        await listIds(t, COMPANY, 'version_key__gte=v1&version_key__lt=v2&connection_key=salesforce'),
        expected((e) => e.connection_key === 'salesforce' && typeof e.version_key === 'string' && e.version_key >= 'v1' && e.version_key < 'v2'),
      );
      assert.deepEqual(await listIds(t, COMPANY, 'type=note&flow_key__contains=o'), []);
    });
  });
});
