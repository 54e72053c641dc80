import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import type { AddressInfo } from 'node:net';
import { httpRequest } from '../hardening/helpers/http.js';
import { runCliInProcess } from '../helpers/cli-in-process.js';
import { cliEnv, runCli } from '../helpers/cli-process.js';
import { describeEachDatabase } from '../helpers/databases.js';
import { createTestApp, signUserToken, TEST_ADMIN_TOKEN, type TestApp } from '../helpers/test-app.js';
import { LOAN_TYPE } from '../records/fixtures.js';

/** Company IDs that break the one rule, with the part of the refusal that says why. */
const BAD_COMPANY_IDS: Array<[string, RegExp]> = [
  ['', /must not be empty/],
  [' acme', /blank/],
  ['acme ', /blank/],
  ['acme\t', /visible characters/],
  ['\u00a0acme', /blank/],
  ['.', /'\.' or '\.\.'/],
  ['..', /'\.' or '\.\.'/],
  ['acme/../globex', /'\.' or '\.\.'/],
  ['./acme', /'\.' or '\.\.'/],
  ['acme/..', /'\.' or '\.\.'/],
  ['acme\\..', /'\.' or '\.\.'/],
  ['ac\u0000me', /visible characters/],
  ['ac\u0007me', /visible characters/],
  ['ac\u200bme', /visible characters/],
  ['ac\u202eme', /visible characters/],
  ['ac\u2028me', /visible characters/],
  ['ac\ud800me', /visible characters/],
  ['x'.repeat(201), /at most 200 characters/],
];

/** Company IDs that follow it, unusual as they look. */
const GOOD_COMPANY_IDS = ['acme', 'Acme Corp', 'a.b', '...', 'a..b', 'acme/sub', 'Züri-Bäckerei 東京', '😀', 'x'.repeat(200)];

describeEachDatabase('the company-ID rule', (kind) => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp(kind);
  });
  after(() => t.close());

  const listWith = (claims: Record<string, unknown>) =>
    signUserToken(claims).then((token) => t.app.inject({ method: 'GET', url: '/v1/records', headers: { authorization: `Bearer ${token}` } }));

  const expectUnauthorized = (response: LightMyRequestResponse, reason: RegExp) => {
    assert.equal(response.statusCode, 401, response.body);
    assert.equal(response.json().code, 'unauthorized');
    assert.match(response.json().message, reason);
  };

  describe('in bearer tokens', () => {
    it('refuses a company_id claim that is not a string, without falling back to companyId', async () => {
      for (const value of [42, 0, true, false, null, {}, { id: 'acme' }, [], ['acme']]) {
        expectUnauthorized(await listWith({ company_id: value, companyId: 'acme', sub: 'u' }), /company_id .*must be a string/);
      }
    });

    it('refuses a company_id (or a lone companyId) that breaks the rule, naming why', async () => {
      for (const [value, reason] of BAD_COMPANY_IDS) {
        expectUnauthorized(await listWith({ company_id: value, companyId: 'acme', sub: 'u' }), reason);
        expectUnauthorized(await listWith({ companyId: value, sub: 'u' }), reason);
      }
      expectUnauthorized(await listWith({ companyId: 7, sub: 'u' }), /companyId .*must be a string/);
    });

    it('accepts company IDs that follow the rule, and the companyId alias alone', async () => {
      for (const value of GOOD_COMPANY_IDS) {
        const response = await listWith({ company_id: value, sub: 'u' });
        assert.equal(response.statusCode, 200, `${value}: ${response.body}`);
      }
      assert.equal((await listWith({ companyId: 'acme', sub: 'u' })).statusCode, 200);
    });
  });

  describe('in operator paths', () => {
    // Over a real socket: an HTTP client library (and inject) resolves '.' and '..' segments before sending.
    let port: number;
    before(async () => {
      await t.app.listen({ port: 0, host: '127.0.0.1' });
      port = (t.app.server.address() as AddressInfo).port;
    });

    const operatorPaths = (company: string) => {
      // Dots encoded, so that the segment reaches the service as sent (clients resolve a bare '.' or '..').
      const c = encodeURIComponent(company).replaceAll('.', '%2E');
      return [
        ['GET', `/admin/v1/companies/${c}/record-types`],
        ['PUT', `/admin/v1/companies/${c}/record-types/loan`],
        ['GET', `/admin/v1/companies/${c}/record-types/loan`],
        ['DELETE', `/admin/v1/companies/${c}/record-types/loan`],
        ['POST', `/admin/v1/companies/${c}/records`],
        ['POST', `/admin/v1/companies/${c}/events`],
        ['POST', `/admin/v1/companies/${c}/checks`],
        ['GET', `/admin/v1/companies/${c}/providers`],
        ['PUT', `/admin/v1/companies/${c}/providers/lob`],
        ['DELETE', `/admin/v1/companies/${c}/providers/lob`],
        ['PUT', `/admin/v1/companies/${c}/templates/invoice`],
        ['GET', `/admin/v1/companies/${c}/templates/invoice`],
        ['DELETE', `/admin/v1/companies/${c}/templates/invoice`],
      ] as const;
    };
    const bodyFor = (method: string, url: string): object | undefined => {
      if (method !== 'PUT' && method !== 'POST') return undefined;
      if (url.endsWith('/record-types/loan')) return LOAN_TYPE;
      if (url.endsWith('/providers/lob')) return { api_key: 'test_0dc8d51e0acffcb1880e0f19c79b2f5b0cc' };
      if (url.endsWith('/templates/invoice')) return { basePdf: { width: 210, height: 297, padding: [0, 0, 0, 0] }, schemas: [[]] };
      return [];
    };

    it('answers 400 invalid_path naming the rule, on every operator route, and stores nothing', async () => {
      // An empty segment routes elsewhere; an unpaired surrogate cannot be written in a URL at all.
      for (const [company, reason] of BAD_COMPANY_IDS.filter(([company]) => company !== '' && !/[\ud800-\udfff]/.test(company))) {
        for (const [method, url] of operatorPaths(company)) {
          const body = bodyFor(method, url);
          const response = await httpRequest(port, method, url, { headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` }, body });
          assert.equal(response.status, 400, `${method} ${url}: ${response.body}`);
          assert.equal(response.json().code, 'invalid_path', response.body);
          assert.match(response.json().message, /^the company in the path /);
          assert.match(response.json().message, reason, `${method} ${url}`);
          assert.match(response.json().message, /a company ID is 1 to 200 visible characters/);
        }
      }
      const stored = await t.ctx.database.db.selectFrom('record_types').select('company_id').execute();
      assert.deepEqual(stored, []);
    });

    it('checks the operator token first', async () => {
      const response = await t.app.inject({ method: 'GET', url: '/admin/v1/companies/%20acme/record-types' });
      assert.equal(response.statusCode, 401, response.body);
    });

    it('serves company IDs that follow the rule', async () => {
      for (const company of GOOD_COMPANY_IDS) {
        const url = `/admin/v1/companies/${encodeURIComponent(company)}/record-types/loan`;
        const put = await t.admin({ method: 'PUT', url, payload: LOAN_TYPE });
        assert.equal(put.statusCode, 201, `${company}: ${put.body}`);
        assert.equal((await t.admin({ method: 'DELETE', url })).statusCode, 204);
      }
    });

    it('keeps 404 for other path parameters that name nothing', async () => {
      const response = await t.admin({ method: 'GET', url: `/admin/v1/companies/acme/record-types/${'t'.repeat(201)}` });
      assert.equal(response.statusCode, 404, response.body);
    });
  });

  describe('in the operator token-mint body', () => {
    it('refuses a company_id that breaks the rule, naming why', async () => {
      for (const [company, reason] of BAD_COMPANY_IDS) {
        const response = await t.admin({ method: 'POST', url: '/admin/v1/tokens', payload: { company_id: company } });
        assert.equal(response.statusCode, 400, `${JSON.stringify(company)}: ${response.body}`);
        assert.equal(response.json().code, 'invalid_body');
        assert.match(response.json().message, /company_id/);
        // Length is the schema's to check; NUL and unpaired surrogates are refused in any body before validation.
        const expected =
          company === '' || company.length > 200 ? /characters/ : /\u0000|\ud800/.test(company) ? /NUL characters or unpaired surrogates/ : reason;
        assert.match(response.json().message, expected);
      }
    });

    it('mints for a company ID that follows the rule, and the token works', async () => {
      const minted = await t.admin({ method: 'POST', url: '/admin/v1/tokens', payload: { company_id: 'Acme Corp' } });
      assert.equal(minted.statusCode, 201, minted.body);
      const listed = await t.app.inject({ method: 'GET', url: '/v1/records', headers: { authorization: `Bearer ${minted.json().token}` } });
      assert.equal(listed.statusCode, 200, listed.body);
    });
  });
});

/** The refusals run in this process; the accepted ID, the real CLI in a process of its own. */
describe('the company-ID rule in the CLI (--company)', () => {
  let dir: string;
  let env: NodeJS.ProcessEnv;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'wrs-company-cli-'));
    env = cliEnv(join(dir, 'wrs.db'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('wrs token and the operator commands refuse a company ID that breaks the rule (exit 2)', async () => {
    const runs = await Promise.all([
      runCliInProcess(['token', '--company', ' acme'], env),
      runCliInProcess(['token', '--company', 'acme/..'], env),
      runCliInProcess(['record-type', 'list', '--company', 'ac\u200bme'], env),
    ]);
    for (const [run, reason] of [
      [runs[0]!, /blank/],
      [runs[1]!, /'\.' or '\.\.'/],
      [runs[2]!, /visible characters/],
    ] as const) {
      assert.equal(run.status, 2, run.stderr);
      assert.match(run.stderr, /^--company /);
      assert.match(run.stderr, reason);
      assert.equal(run.stdout, '');
    }
  });

  it('wrs token accepts a company ID that follows the rule', async () => {
    const run = await runCli(['token', '--company', 'Acme Corp'], env);
    assert.equal(run.status, 0, run.stderr);
    assert.match(run.stdout.trim(), /^[\w-]+\.[\w-]+\.[\w-]+$/);
  });
});
