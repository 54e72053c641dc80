import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { createAppContext, type AppContext } from '../../src/app-context.js';
import type { RecordsRepository } from '../../src/domain/records/records-repository.port.js';
import type { UnitOfWork } from '../../src/domain/unit-of-work.js';
import { buildApp } from '../../src/http/app.js';
import { ManualClock } from '../../src/lib/clock.js';
import { createIdempotencyRepository } from '../../src/storage/repositories/idempotency-repository.js';
import { LEASE_MS } from '../../src/domain/idempotency/idempotency-service.js';
import { describeEachDatabase } from '../helpers/databases.js';
import { createTestApp, signUserToken, TEST_ADMIN_TOKEN, type TestApp } from '../helpers/test-app.js';
import { INVOICE_TYPE, putTemplate } from '../pdf/fixtures/records.js';
import { invoiceTemplate } from '../pdf/fixtures/templates.js';
import { defineType, expectStatus, LOAN_TYPE, VALID_LOAN } from '../records/fixtures.js';

/** A gate a write waits at before its transaction, so a test can hold a request mid-run. */
class Gate {
  private opened: Promise<void> = Promise.resolve();
  private open: () => void = () => undefined;
  private arrived: () => void = () => undefined;
  /** Resolves when a request reaches the gate. */
  reached: Promise<void> = Promise.resolve();
  close(): void {
    this.opened = new Promise((resolve) => (this.open = resolve));
    this.reached = new Promise((resolve) => (this.arrived = resolve));
  }
  release(): void {
    this.open();
  }
  async pass(): Promise<void> {
    this.arrived();
    await this.opened;
  }
}

describeEachDatabase('Idempotency-Key', (kind) => {
  let t: TestApp;
  const clock = new ManualClock('2026-05-01T09:00:00.000Z');
  const gate = new Gate();
  let failNextInsert = false;
  const wrap = (repository: RecordsRepository): RecordsRepository => ({
    ...repository,
    async insertMany(companyId, rows, scope, onProgress) {
      if (failNextInsert) {
        failNextInsert = false;
        throw new Error('the database fell over (test)');
      }
      return repository.insertMany(companyId, rows, scope, onProgress);
    },
  });
  // The gate holds a request before its transaction begins: on SQLite a transaction held open
  // would keep the one writer, and the second request's key claim would wait for it.
  const wrapUnitOfWork = (unitOfWork: UnitOfWork): UnitOfWork => ({
    afterCommit: (scope, callback) => unitOfWork.afterCommit(scope, callback),
    async run(work) {
      await gate.pass();
      return unitOfWork.run(work);
    },
  });

  before(async () => {
    t = await createTestApp(kind, { clock, context: { wrapRecordsRepository: wrap, wrapUnitOfWork } });
    for (const company of ['acme', 'globex']) {
      await defineType(t, company, 'loan', LOAN_TYPE);
      await defineType(t, company, 'invoice', INVOICE_TYPE);
      await putTemplate(t, company, 'invoice', invoiceTemplate());
    }
  });
  after(() => t.close());

  const withKey = (key: string, options: InjectOptions): InjectOptions => ({
    ...options,
    headers: { ...options.headers, 'idempotency-key': key },
  });
  const create = (key: string, body: unknown, company = 'acme', typeId = 'loan') =>
    t.as(company, withKey(key, { method: 'POST', url: `/v1/records/${typeId}`, payload: body as object }));
  const recordCount = async (company = 'acme') => {
    const row = await t.ctx.database.db
      .selectFrom('records')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('company_id', '=', company)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  };
  const keyRows = async () => {
    const row = await t.ctx.database.db
      .selectFrom('idempotency_keys')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  };

  describe('POST /v1/records/{typeId}', () => {
    it('runs once: a retry gets the same status, body and Location, marked replayed', async () => {
      const before = await recordCount();
      const first = await create('create-1', VALID_LOAN);
      const record = expectStatus(first, 201);
      assert.equal(first.headers['idempotent-replayed'], undefined);
      const retry = await create('create-1', VALID_LOAN);
      assert.equal(retry.statusCode, 201);
      assert.equal(retry.headers['idempotent-replayed'], 'true');
      assert.equal(retry.body, first.body);
      assert.equal(retry.headers.location, first.headers.location);
      assert.match(String(retry.headers['content-type']), /^application\/json/);
      assert.deepEqual(retry.json(), record);
      assert.equal(await recordCount(), before + 1);
    });

    it('takes the same JSON value in another key order or formatting as the same body', async () => {
      const before = await recordCount();
      const first = await create('create-order', { f_amount: 5, f_borrower: 'Bo', f_signed: true });
      expectStatus(first, 201);
      const retry = await t.as(
        'acme',
        withKey('create-order', {
          method: 'POST',
          url: '/v1/records/loan',
          headers: { 'content-type': 'application/json' },
          payload: '{\n  "f_signed" : true,\n  "f_borrower": "Bo",   "f_amount": 5.0\n}',
        }),
      );
      assert.equal(retry.statusCode, 201, retry.body);
      assert.equal(retry.headers['idempotent-replayed'], 'true');
      assert.equal(retry.body, first.body);
      assert.equal(await recordCount(), before + 1);
    });

    it('answers 422 idempotency_key_reused to the same key with another body or path, and runs nothing', async () => {
      expectStatus(await create('create-reuse', VALID_LOAN), 201);
      const before = await recordCount();
      const other = expectStatus(await create('create-reuse', { ...VALID_LOAN, f_amount: 1 }), 422, 'idempotency_key_reused');
      assert.match(other.message, /Idempotency-Key 'create-reuse' was used with another request/);
      expectStatus(await create('create-reuse', VALID_LOAN, 'acme', 'invoice'), 422, 'idempotency_key_reused');
      assert.equal(await recordCount(), before);
    });

    it('keeps a 4xx answer and replays it', async () => {
      const before = await recordCount();
      const first = expectStatus(await create('create-400', { f_amount: 'x' }), 400, 'validation_failed');
      const retry = await create('create-400', { f_amount: 'x' });
      assert.equal(retry.statusCode, 400);
      assert.equal(retry.headers['idempotent-replayed'], 'true');
      assert.deepEqual(retry.json(), first);
      assert.equal(await recordCount(), before);
    });

    it('does not keep a 5xx: the retry runs', async () => {
      failNextInsert = true;
      const before = await recordCount();
      expectStatus(await create('create-500', VALID_LOAN), 500, 'internal');
      const retry = await create('create-500', VALID_LOAN);
      expectStatus(retry, 201);
      assert.equal(retry.headers['idempotent-replayed'], undefined);
      assert.equal(await recordCount(), before + 1);
    });

    it('answers 409 idempotency_key_in_use with Retry-After while the first runs, and does not keep it', async () => {
      const before = await recordCount();
      gate.close();
      const first = create('create-held', VALID_LOAN);
      await gate.reached;
      const during = await create('create-held', VALID_LOAN);
      expectStatus(during, 409, 'idempotency_key_in_use');
      // The lease's time left: the holder's lease was just taken (the test clock stands still).
      assert.equal(during.headers['retry-after'], String(LEASE_MS / 1000));
      // Even with another body: the key is busy, whatever is sent.
      expectStatus(await create('create-held', { ...VALID_LOAN, f_amount: 2 }), 409, 'idempotency_key_in_use');
      gate.release();
      const done = await first;
      expectStatus(done, 201);
      const retry = await create('create-held', VALID_LOAN);
      assert.equal(retry.headers['idempotent-replayed'], 'true');
      assert.equal(retry.body, done.body);
      assert.equal(await recordCount(), before + 1);
    });

    it('keeps the keys of each company apart', async () => {
      const acme = expectStatus(await create('shared-key', VALID_LOAN, 'acme'), 201);
      const globex = await create('shared-key', VALID_LOAN, 'globex');
      expectStatus(globex, 201);
      assert.equal(globex.headers['idempotent-replayed'], undefined);
      assert.notEqual(globex.json().id, acme.id);
      // globex's key does not see acme's body either: another body is fine there once, then reused.
      expectStatus(await create('acme-only', VALID_LOAN, 'acme'), 201);
      expectStatus(await create('acme-only', { ...VALID_LOAN, f_amount: 9 }, 'globex'), 201);
    });

    it('refuses a malformed key with 400 invalid_header, naming the header and the rule', async () => {
      const before = await recordCount();
      for (const key of ['', ' ', 'has space', 'tab\tkey', 'x'.repeat(256), 'caf\u00e9']) {
        const body = expectStatus(await create(key, VALID_LOAN), 400, 'invalid_header');
        assert.match(body.message, /Idempotency-Key must be 1 to 255 visible ASCII characters/, JSON.stringify(key));
      }
      assert.equal(await recordCount(), before);
      expectStatus(await create('~'.repeat(255), VALID_LOAN), 201);
      expectStatus(await create('!#$%&()*+,-./:;<=>?@[]^_`{|}', VALID_LOAN), 201);
    });

    it('changes nothing without the header', async () => {
      const before = await recordCount();
      const first = expectStatus(await t.as('acme', { method: 'POST', url: '/v1/records/loan', payload: VALID_LOAN }), 201);
      const second = expectStatus(await t.as('acme', { method: 'POST', url: '/v1/records/loan', payload: VALID_LOAN }), 201);
      assert.notEqual(first.id, second.id);
      assert.equal(await recordCount(), before + 2);
    });
  });

  describe('record tokens', () => {
    let recordId: string;
    before(async () => {
      recordId = expectStatus(await t.as('acme', { method: 'POST', url: '/v1/records/loan', payload: VALID_LOAN }), 201).id;
    });
    const mint = (key: string, path: 'tokens' | 'actions', body: object = { expires_in: 600 }, id = recordId) =>
      t.as('acme', withKey(key, { method: 'POST', url: `/v1/records/${id}/${path}`, payload: body }));
    const liveTokens = async () => expectStatus(await t.as('acme', { method: 'GET', url: `/v1/records/${recordId}/tokens` }), 200).count;

    it('mints one token for a retried POST /tokens', async () => {
      const before = await liveTokens();
      const first = await mint('mint-1', 'tokens');
      const token = expectStatus(first, 201);
      const retry = await mint('mint-1', 'tokens');
      assert.equal(retry.statusCode, 201);
      assert.equal(retry.headers['idempotent-replayed'], 'true');
      assert.equal(retry.json().token, token.token);
      assert.equal(retry.headers.location, first.headers.location);
      assert.equal(await liveTokens(), before + 1);
    });

    it('counts /tokens and /actions as one scope; /actions keeps its deprecation headers on a replay', async () => {
      const before = await liveTokens();
      const first = expectStatus(await mint('mint-shared', 'tokens'), 201);
      const viaActions = await mint('mint-shared', 'actions');
      assert.equal(viaActions.statusCode, 201);
      assert.equal(viaActions.headers['idempotent-replayed'], 'true');
      assert.equal(viaActions.json().key, first.key);
      assert.equal(viaActions.headers.deprecation, 'true');
      assert.match(String(viaActions.headers.link), /rel="successor-version"/);
      expectStatus(await mint('mint-shared', 'actions', { expires_in: 60 }), 422, 'idempotency_key_reused');
      assert.equal(await liveTokens(), before + 1);
    });

    it('takes the same key on another record as another request (422)', async () => {
      const other = expectStatus(await t.as('acme', { method: 'POST', url: '/v1/records/loan', payload: VALID_LOAN }), 201).id;
      expectStatus(await mint('mint-path', 'tokens'), 201);
      expectStatus(await mint('mint-path', 'tokens', { expires_in: 600 }, other), 422, 'idempotency_key_reused');
    });
  });

  describe('PUT /v1/records/{record}/steps', () => {
    it('renders one PDF for a retried step', async () => {
      const invoice = expectStatus(
        await t.as('acme', { method: 'POST', url: '/v1/records/invoice', payload: { f_customer: 'Ada', f_amount: 3, f_paid: true } }),
        201,
      );
      const files = async () => expectStatus(await t.as('acme', { method: 'GET', url: `/v1/records/${invoice.id}/files` }), 200).count;
      const run = () =>
        t.as(
          'acme',
          withKey('step-1', {
            method: 'PUT',
            url: `/v1/records/${invoice.id}/steps`,
            payload: { type: 'pdf_create', inputs: { pdf_filename: 'a', template_id: 'invoice' } },
          }),
        );
      const first = await run();
      expectStatus(first, 200);
      const retry = await run();
      assert.equal(retry.statusCode, 200);
      assert.equal(retry.headers['idempotent-replayed'], 'true');
      assert.equal(retry.body, first.body);
      assert.equal(await files(), 1);
    });
  });

  describe('operator routes (the company in the path)', () => {
    const eventsCount = async (company: string) => expectStatus(await t.as(company, { method: 'GET', url: '/v1/events?limit=10000' }), 200).count;
    const ingest = (company: string, key: string, payload: string, contentType: string) =>
      t.admin(withKey(key, { method: 'POST', url: `/admin/v1/companies/${company}/events`, headers: { 'content-type': contentType }, payload }));
    const events = [
      { type: 'step_completed', flow_key: 'f', flow_session: 1, user_id: 'u1' },
      { type: 'step_started', flow_key: 'f', flow_session: 2, user_id: 'u2' },
    ];

    it('ingests once: the same events as NDJSON or a JSON array, in any key order, are the same body', async () => {
      const before = await eventsCount('acme');
      const ndjson = `${events.map((event) => JSON.stringify(event)).join('\n')}\n`;
      const first = await ingest('acme', 'ingest-1', ndjson, 'application/x-ndjson');
      assert.deepEqual(expectStatus(first, 200), { ingested: 2 });
      const reordered = JSON.stringify(
        events.map((event) => Object.fromEntries(Object.entries(event).reverse())),
        null,
        2,
      );
      const retry = await ingest('acme', 'ingest-1', reordered, 'application/json');
      assert.equal(retry.statusCode, 200, retry.body);
      assert.equal(retry.headers['idempotent-replayed'], 'true');
      assert.equal(retry.body, first.body);
      assert.equal(await eventsCount('acme'), before + 2);
      expectStatus(await ingest('acme', 'ingest-1', JSON.stringify(events.slice(1)), 'application/json'), 422, 'idempotency_key_reused');
      assert.equal(await eventsCount('acme'), before + 2);
    });

    it('keeps the key per company in the path', async () => {
      const body = JSON.stringify(events);
      expectStatus(await ingest('acme', 'ingest-co', body, 'application/json'), 200);
      const globex = await ingest('globex', 'ingest-co', body, 'application/json');
      expectStatus(globex, 200);
      assert.equal(globex.headers['idempotent-replayed'], undefined);
    });

    it('keeps a refused ingest (400) and replays it', async () => {
      const bad = JSON.stringify([{ type: 'x', flow_session: 'not a number' }]);
      const first = await ingest('acme', 'ingest-bad', bad, 'application/json');
      expectStatus(first, 400, 'invalid_body');
      const retry = await ingest('acme', 'ingest-bad', bad, 'application/json');
      assert.equal(retry.statusCode, 400);
      assert.equal(retry.headers['idempotent-replayed'], 'true');
      assert.equal(retry.body, first.body);
    });

    it('imports once', async () => {
      const before = await recordCount('globex');
      const records = [{ record_type: 'uccfiling', status: 'filed' }];
      const importing = (payload: string, contentType: string) =>
        t.admin(withKey('import-1', { method: 'POST', url: '/admin/v1/companies/globex/records', headers: { 'content-type': contentType }, payload }));
      const first = await importing(JSON.stringify(records), 'application/json');
      assert.deepEqual(expectStatus(first, 201), { imported: 1 });
      const retry = await importing(`${JSON.stringify(records[0])}\n`, 'application/x-ndjson');
      assert.equal(retry.statusCode, 201, retry.body);
      assert.equal(retry.headers['idempotent-replayed'], 'true');
      assert.equal(await recordCount('globex'), before + 1);
    });
  });

  describe('expiry', () => {
    it('never replays an answer older than 24 hours, even before the cleanup ran; the cleanup deletes it', async () => {
      const first = expectStatus(await create('expiring', VALID_LOAN), 201);
      clock.advanceSeconds(24 * 3600 - 1);
      assert.equal((await create('expiring', VALID_LOAN)).headers['idempotent-replayed'], 'true');
      clock.advanceSeconds(1);
      const rows = await keyRows();
      const again = await create('expiring', VALID_LOAN);
      expectStatus(again, 201);
      assert.equal(again.headers['idempotent-replayed'], undefined);
      assert.notEqual(again.json().id, first.id);
      assert.equal(await keyRows(), rows, 'the expired entry was taken over, not added beside');
      clock.advanceSeconds(24 * 3600);
      assert.ok((await t.ctx.idempotency.deleteExpired()) >= 1);
      assert.equal(await keyRows(), 0);
    });

    it('lets a claim whose process died be taken over once its lease ran out', async () => {
      const repository = createIdempotencyRepository(t.ctx.database.db);
      const leaseEnd = new Date(clock.now().getTime() + 2 * 60_000).toISOString();
      assert.ok(
        await repository.claim({ companyId: 'acme', scope: 'records.create', key: 'orphan' }, { token: 'dead', requestHash: null, expiresAt: leaseEnd }),
      );
      const busy = await create('orphan', VALID_LOAN);
      expectStatus(busy, 409, 'idempotency_key_in_use');
      assert.equal(busy.headers['retry-after'], '120', 'the dead claim frees the key in two minutes');
      clock.advanceSeconds(90.5);
      assert.equal((await create('orphan', VALID_LOAN)).headers['retry-after'], '30', 'the time left, rounded up');
      clock.advanceSeconds(29.5);
      const taken = await create('orphan', VALID_LOAN);
      expectStatus(taken, 201);
      assert.equal((await create('orphan', VALID_LOAN)).headers['idempotent-replayed'], 'true');
    });
  });

  describe('two service instances on one database', () => {
    let second: { app: FastifyInstance; ctx: AppContext };
    before(async () => {
      const ctx = await createAppContext(t.ctx.config, { clock, migrate: false });
      second = { ctx, app: await buildApp(ctx, { logger: false }) };
      await second.app.ready();
    });
    after(async () => {
      await second.app.close();
      await second.ctx.close();
    });

    it('run a key they receive at once only once', async () => {
      const token = await signUserToken({ company_id: 'acme', sub: 'user-1' });
      for (let round = 0; round < 5; round++) {
        const before = await recordCount();
        const key = `race-${round}`;
        const send = (app: FastifyInstance) =>
          app.inject({ method: 'POST', url: '/v1/records/loan', payload: VALID_LOAN, headers: { authorization: `Bearer ${token}`, 'idempotency-key': key } });
        const answers = await Promise.all([send(t.app), send(second.app), send(t.app), send(second.app)]);
        const created = answers.filter((answer) => answer.statusCode === 201);
        assert.ok(created.length >= 1, answers.map((answer) => answer.body).join('\n'));
        assert.ok(
          answers.every((answer) => answer.statusCode === 201 || answer.statusCode === 409),
          answers.map((a) => a.body).join('\n'),
        );
        assert.equal(new Set(created.map((answer) => answer.json().id)).size, 1);
        assert.equal(created.filter((answer) => answer.headers['idempotent-replayed'] === undefined).length, 1);
        assert.equal(await recordCount(), before + 1);
      }
    });

    it('answer 409 on one while the other runs the key, and replay it after', async () => {
      const token = await signUserToken({ company_id: 'acme', sub: 'user-1' });
      const send = (app: FastifyInstance) =>
        app.inject({
          method: 'POST',
          url: '/v1/records/loan',
          payload: VALID_LOAN,
          headers: { authorization: `Bearer ${token}`, 'idempotency-key': 'held-across' },
        });
      gate.close();
      const first = send(t.app);
      await gate.reached;
      expectStatus(await send(second.app), 409, 'idempotency_key_in_use');
      gate.release();
      const done = await first;
      const replay = await send(second.app);
      assert.equal(replay.headers['idempotent-replayed'], 'true');
      assert.equal(replay.body, done.body);
    });
  });
});

describeEachDatabase('Idempotency-Key: which answers are kept, and the periodic cleanup', (kind) => {
  let t: TestApp;
  let app: FastifyInstance;
  let ctx: AppContext;
  const clock = new ManualClock('2026-05-01T09:00:00.000Z');
  let runs = 0;

  before(async () => {
    t = await createTestApp(kind, { clock });
    ctx = await createAppContext(t.ctx.config, { clock, migrate: false, idempotency: { cleanupIntervalMs: 25 } });
    app = await buildApp(ctx, { logger: false });
    // A route that answers the status it is asked for, opted in as a route of the service would be
    // (its body has message and code, as the 409 and 422 answers the opt-in documents must).
    app.post<{ Params: { company: string }; Body: { status: number } }>(
      '/admin/v1/companies/:company/answers',
      { config: { idempotency: 'test.answers' } },
      async (request, reply) => {
        runs++;
        return reply.code(request.body.status).send({ message: `run ${runs}`, code: 'test' });
      },
    );
    await app.ready();
  });
  after(async () => {
    await app.close();
    await ctx.close();
    await t.close();
  });

  const answer = (key: string, status: number) =>
    app.inject({
      method: 'POST',
      url: '/admin/v1/companies/acme/answers',
      payload: { status },
      headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}`, 'idempotency-key': key },
    });

  for (const status of [500, 503, 409, 429]) {
    it(`does not keep a ${status}: the retry runs again`, async () => {
      const before = runs;
      assert.equal((await answer(`not-kept-${status}`, status)).statusCode, status);
      const retry = await answer(`not-kept-${status}`, status);
      assert.equal(retry.statusCode, status);
      assert.equal(retry.headers['idempotent-replayed'], undefined);
      assert.equal(runs, before + 2);
    });
  }

  for (const status of [200, 201, 202, 400, 404, 422]) {
    it(`keeps a ${status}`, async () => {
      const before = runs;
      const first = await answer(`kept-${status}`, status);
      const retry = await answer(`kept-${status}`, status);
      assert.equal(retry.statusCode, status);
      assert.equal(retry.headers['idempotent-replayed'], 'true');
      assert.equal(retry.body, first.body);
      assert.equal(runs, before + 1);
    });
  }

  it('deletes expired keys every interval while serving', async () => {
    const count = async () =>
      Number(
        (
          await ctx.database.db
            .selectFrom('idempotency_keys')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    await answer('cleaned', 200);
    assert.ok((await count()) > 0);
    await sleep(100);
    assert.ok((await count()) > 0, 'nothing is deleted before it expires');
    clock.advanceSeconds(24 * 3600);
    for (let waited = 0; waited < 2000 && (await count()) > 0; waited += 25) await sleep(25);
    assert.equal(await count(), 0);
  });
});
