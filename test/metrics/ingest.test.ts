// Ingest figures: requests by outcome and events stored, after NDJSON ingests good and bad.
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { describeEachDatabase } from '../helpers/databases.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { anEvent, ingest } from '../events/event-fixtures.js';
import { scrape } from './exposition.js';

describeEachDatabase('ingest metrics', (kind) => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp(kind);
  });
  after(() => t.close());

  it('counts stored NDJSON ingests and their events; a refused one stores no event', async () => {
    const events = Array.from({ length: 7 }, (_, i) => anEvent({ id: `e${i}` }));
    assert.equal((await ingest(t, 'acme', events.slice(0, 4), 'ndjson')).statusCode, 200);
    assert.equal((await ingest(t, 'globex', events.slice(4), 'ndjson')).statusCode, 200);
    const refused = await ingest(t, 'acme', [anEvent({ id: 'ok' }), { type: 42 }], 'ndjson');
    assert.equal(refused.statusCode, 400, refused.body);

    const exposition = await scrape(t);
    assert.equal(exposition.value('wrs_ingest_requests_total', { outcome: 'stored' }), 2);
    assert.equal(exposition.value('wrs_ingest_requests_total', { outcome: 'refused' }), 1);
    assert.equal(exposition.value('wrs_ingested_events_total'), 7);
    assert.equal(
      exposition.value('wrs_http_request_duration_seconds_count', { method: 'POST', route: '/admin/v1/companies/:company/events', status_code: '200' }),
      2,
    );
  });
});
