import assert from 'node:assert/strict';
import type { TestApp } from '../helpers/test-app.js';

export interface FeedPage {
  count: number;
  results: { id: string; type: string; text: string | null; company_id: string }[];
  next_cursor: string;
}

/** One page of GET /v1/events/changes, checked for its shape. */
export async function changes(t: TestApp, company: string, query: Record<string, string | number> = {}): Promise<FeedPage> {
  const search = new URLSearchParams(Object.entries(query).map(([name, value]) => [name, String(value)]));
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
