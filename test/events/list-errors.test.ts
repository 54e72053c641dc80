import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { describeEachDatabase } from '../helpers/databases.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { expectInvalidQuery, filterDataset, ingestOk, listEvents } from './event-fixtures.js';

const COMPANY = 'acme';

describeEachDatabase('GET /v1/events refusals', (kind) => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp(kind);
    await ingestOk(t, COMPANY, filterDataset());
  });
  after(() => t.close());

  const refuses = (query: string, params: string[], messageIncludes?: string) =>
    it(`${query} -> 400 naming ${params.join(', ')}`, async () => {
      expectInvalidQuery(await listEvents(t, COMPANY, query), params, messageIncludes);
    });

  describe('unknown, repeated and mis-suffixed parameters', () => {
    refuses('foo=1', ['foo'], "unknown query parameter 'foo'");
    refuses('foo=1&bar=2&limit=5', ['foo', 'bar']);
    refuses('flow_key=a&flow_key=b', ['flow_key'], 'only once');
    refuses('limit=1&limit=2', ['limit'], 'only once');
    refuses('flow_key__contains=a&flow_key__contains=a', ['flow_key__contains']);
    refuses('type__contains=user', ['type__contains'], "'type' does not accept the __contains operator");
    refuses('type__gt=a', ['type__gt'], 'does not accept');
    refuses('selected_decision__lt=b', ['selected_decision__lt'], 'does not accept');
    refuses('user_id__gte=a', ['user_id__gte'], 'does not accept');
    refuses('user_key__contains=a', ['user_key__contains'], 'does not accept');
    refuses('flow_session__contains=1', ['flow_session__contains'], 'does not accept');
    refuses('limit__gt=5', ['limit__gt']);
    refuses('flow_key__in=a', ['flow_key__in']);
    refuses('flow_key__ne=a', ['flow_key__ne']);
    refuses('flow_key__CONTAINS=a', ['flow_key__CONTAINS']);
    refuses('created_at=2026-01-01', ['created_at']);
    refuses('created_at__contains=2026', ['created_at__contains']);
    refuses('FLOW_KEY=onboarding', ['FLOW_KEY']);
    refuses('company_id=other', ['company_id']);
  });

  describe('limit and page', () => {
    for (const value of ['0', '-1', '10001', '1.5', 'abc', '', '0x10', '1e3', ' 5', '99999999999999999999']) {
      refuses(`limit=${encodeURIComponent(value)}`, ['limit']);
    }
    for (const value of ['0', '-3', '2.5', 'x', '', '10000001']) {
      refuses(`page=${encodeURIComponent(value)}`, ['page']);
    }
    it('names the maximum of limit', async () => {
      const response = await listEvents(t, COMPANY, 'limit=10001');
      expectInvalidQuery(response, ['limit'], '10000');
    });
  });

  describe('flow_session takes integers only', () => {
    for (const value of ['abc', '1.5', '1e2', '', '0x1', '99999999999999999999', 'null']) {
      refuses(`flow_session=${encodeURIComponent(value)}`, ['flow_session']);
      refuses(`flow_session__gt=${encodeURIComponent(value)}`, ['flow_session__gt']);
    }
  });

  describe('created_at bounds are ISO 8601 dates or date-times with a zone', () => {
    for (const value of ['yesterday', '2026-13-01', '2026-02-30', '2026-01-01T10:00:00', '2026-01-01T25:00:00Z', '2026-01-01 10:00:00Z', '1767225600', '']) {
      refuses(`created_at__gt=${encodeURIComponent(value)}`, ['created_at__gt'], 'ISO 8601');
    }
    refuses('created_at__lte=nope&created_at__gte=2026-01-01', ['created_at__lte']);
  });

  describe('user_key is an alias of user_id', () => {
    refuses('user_id=a&user_key=b', ['user_id', 'user_key'], 'different values');
  });

  describe('order_by', () => {
    for (const value of ['nope', '-nope', 'version_object', '--created_at', '+created_at', '', 'created_at,id', 'CREATED_AT']) {
      refuses(`order_by=${encodeURIComponent(value)}`, ['order_by']);
    }
    refuses('order_by=id&order_by=-id', ['order_by'], 'only once');
  });

  describe('values the database cannot hold', () => {
    refuses('flow_key=%00', ['flow_key']);
    refuses('flow_key__contains=a%00b', ['flow_key__contains']);
    refuses('created_at__gt=%00', ['created_at__gt']);
  });

  it('answers 401 without a bearer token, before looking at the query', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/v1/events?foo=1' });
    assert.equal(response.statusCode, 401);
    assert.equal(response.json().code, 'unauthorized');
  });
});
