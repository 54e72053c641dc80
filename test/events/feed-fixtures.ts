import assert from 'node:assert/strict';
import { sql } from 'kysely';
import type { TestApp } from '../helpers/test-app.js';

/**
 * On PostgreSQL the feed shows an event once every transaction older than its own has ended,
 * in the whole cluster (other suites run beside this one): waits until every transaction begun
 * so far has ended. Nothing to wait for on SQLite.
 */
export async function settleFeed(t: TestApp): Promise<void> {
  if (t.database.kind !== 'postgres') return;
  const db = t.ctx.database.db;
  const { rows } = await sql<{ xmax: string }>`select pg_snapshot_xmax(pg_current_snapshot())::text as xmax`.execute(db);
  const deadline = Date.now() + 15_000;
  for (;;) {
    const { rows: now } = await sql<{ settled: boolean }>`select pg_snapshot_xmin(pg_current_snapshot()) >= ${rows[0]!.xmax}::xid8 as settled`.execute(db);
    if (now[0]!.settled) return;
    if (Date.now() > deadline) throw new Error('transactions of the cluster stayed open for 15 s');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

export interface FeedPage {
  count: number;
  results: { id: string; type: string; text: string | null; company_id: string }[];
  next_cursor: string;
}

/** One page of GET /v1/events/changes, checked for its shape. */
export async function changes(
  t: TestApp,
  company: string,
  query: Record<string, string | number> = {},
  { settle = true }: { settle?: boolean } = {},
): Promise<FeedPage> {
  if (settle) await settleFeed(t);
  const search = new URLSearchParams(Object.entries(query).map(([name, value]): [string, string] => [name, String(value)]));
  const response = await t.as(company, { method: 'GET', url: `/v1/events/changes${search.size > 0 ? `?${search}` : ''}` });
  assert.equal(response.statusCode, 200, response.body);
  const body = response.json() as FeedPage;
  assert.deepEqual(Object.keys(body), ['count', 'results', 'next_cursor']);
  assert.equal(body.count, body.results.length);
  assert.equal(typeof body.next_cursor, 'string');
  return body;
}

/** Follows the feed from `after` (or the beginning) to its current end. */
export async function followToEnd(
  t: TestApp,
  company: string,
  after?: string,
  options: { limit?: number; type?: string } = {},
): Promise<{ ids: string[]; texts: (string | null)[]; cursor: string }> {
  const ids: string[] = [];
  const texts: (string | null)[] = [];
  let cursor = after;
  for (;;) {
    const page = await changes(t, company, {
      ...(cursor === undefined ? {} : { after: cursor }),
      ...(options.limit === undefined ? {} : { limit: options.limit }),
      ...(options.type === undefined ? {} : { type: options.type }),
    });
    for (const event of page.results) {
      ids.push(event.id);
      texts.push(event.text);
    }
    if (page.count === 0) {
      if (cursor !== undefined) assert.equal(page.next_cursor, cursor, 'an empty page keeps the cursor');
      return { ids, texts, cursor: page.next_cursor };
    }
    cursor = page.next_cursor;
  }
}
