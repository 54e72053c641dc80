import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { createRecord, defineType } from '../records/fixtures.js';

const COMPANY = 'links-co';

/** The `next` link of a one-record page of two records, as the given headers make it. */
async function nextLink(t: TestApp, headers: Record<string, string>): Promise<string> {
  const response = await t.as(COMPANY, { method: 'GET', url: '/v1/records?limit=1', headers });
  assert.equal(response.statusCode, 200, response.body);
  const next = response.json().next as string;
  assert.ok(next, response.body);
  return next;
}

async function withTwoRecords(env: Record<string, string>): Promise<TestApp> {
  const t = await createTestApp('sqlite', { env: { WRS_PUBLIC_URL: '', ...env } });
  await defineType(t, COMPANY, 'loan');
  await createRecord(t, COMPANY, 'loan');
  await createRecord(t, COMPANY, 'loan');
  return t;
}

describe('links in production come from the configured base, never from a forged Host', () => {
  let t: TestApp;
  before(async () => {
    t = await withTwoRecords({ NODE_ENV: 'production', WRS_ALLOWED_HOSTS: 'api.example.com,api.example.org:8443' });
  });
  after(() => t.close());

  it('a request naming a host off the list gets links to the first allowed host', async () => {
    assert.match(await nextLink(t, { host: 'evil.example' }), /^http:\/\/api\.example\.com\/v1\/records\?/);
    assert.match(await nextLink(t, { host: 'api.example.com.evil.example' }), /^http:\/\/api\.example\.com\//);
    assert.match(await nextLink(t, { host: 'api.example.org' }), /^http:\/\/api\.example\.com\//, 'the port is part of the host');
  });

  it('a request naming an allowed host gets links to that host', async () => {
    assert.match(await nextLink(t, { host: 'api.example.org:8443' }), /^http:\/\/api\.example\.org:8443\/v1\/records\?/);
    assert.match(await nextLink(t, { host: 'API.Example.COM' }), /^http:\/\/api\.example\.com\//);
  });

  it('X-Forwarded-Host and -Proto are not believed without WRS_TRUST_PROXY', async () => {
    const link = await nextLink(t, { host: 'api.example.com', 'x-forwarded-host': 'api.example.org:8443', 'x-forwarded-proto': 'https' });
    assert.match(link, /^http:\/\/api\.example\.com\//);
  });

  it('Location of a created record uses the same base', async () => {
    const response = await t.as(COMPANY, {
      method: 'POST',
      url: '/v1/records/loan',
      payload: { f_amount: 1, f_borrower: 'B' },
      headers: { host: 'evil.example' },
    });
    assert.equal(response.statusCode, 201, response.body);
    assert.equal(response.headers.location, `http://api.example.com/v1/records/${response.json().id}`);
  });
});

describe('links behind a trusted proxy', () => {
  let t: TestApp;
  before(async () => {
    t = await withTwoRecords({ NODE_ENV: 'production', WRS_ALLOWED_HOSTS: 'api.example.com,api.example.org:8443', WRS_TRUST_PROXY: 'true' });
  });
  after(() => t.close());

  it('follow an allowed X-Forwarded-Host and its scheme, and ignore one off the list', async () => {
    const forwarded = { host: 'internal:8080', 'x-forwarded-proto': 'https' };
    assert.match(await nextLink(t, { ...forwarded, 'x-forwarded-host': 'api.example.org:8443' }), /^https:\/\/api\.example\.org:8443\//);
    assert.match(await nextLink(t, { ...forwarded, 'x-forwarded-host': 'evil.example' }), /^https:\/\/api\.example\.com\//);
    assert.match(await nextLink(t, { host: 'api.example.com', 'x-forwarded-proto': 'javascript' }), /^http:\/\/api\.example\.com\//);
  });
});

describe('links with WRS_PUBLIC_URL, and outside production', () => {
  it('WRS_PUBLIC_URL wins over every header', async () => {
    const t = await withTwoRecords({ NODE_ENV: 'production', WRS_PUBLIC_URL: 'https://records.example.com/' });
    try {
      assert.match(await nextLink(t, { host: 'evil.example' }), /^https:\/\/records\.example\.com\/v1\/records\?/);
    } finally {
      await t.close();
    }
  });

  it('outside production without a list, the request host is used', async () => {
    const t = await withTwoRecords({ NODE_ENV: 'development' });
    try {
      assert.match(await nextLink(t, { host: 'localhost:8080' }), /^http:\/\/localhost:8080\/v1\/records\?/);
    } finally {
      await t.close();
    }
  });
});
