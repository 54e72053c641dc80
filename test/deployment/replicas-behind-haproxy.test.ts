import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { createMigratedTestDatabase, PG_URL, type TestDatabase } from '../helpers/databases.js';
import { signUserToken, TEST_ADMIN_TOKEN } from '../helpers/test-app.js';
import { freePort, startServer, type ServerProcess } from '../hardening/helpers/server-process.js';
import { eventually, startReceiver, type Receiver } from '../webhooks/receiver.js';
import { CHECK_FALL, CHECK_INTERVAL_MS, HAPROXY_BINARY, startHaproxy, type Haproxy } from './helpers/haproxy.js';
import { send, startMixedLoad } from './helpers/mixed-load.js';
import { PROMETHEUS_BINARY, startPrometheus } from './helpers/prometheus.js';
import { followStream } from './helpers/resumable-stream.js';

const REPLICAS = 3;
/** Requests a minute per company, counted in Redis by every replica together. */
const COMPANY_LIMIT = 2400;
const RECORD_TYPE = 'task';
const METRICS_TOKEN = 'scrape-only-token-0123456789';

const skip = !PG_URL
  ? 'WRS_TEST_PG_URL is not set (replicas share a PostgreSQL database; SQLite serves one node)'
  : !existsSync(HAPROXY_BINARY)
    ? `${HAPROXY_BINARY} is missing (apt-get install haproxy; .ci/run installs it)`
    : false;

describe('three replicas behind HAProxy on one PostgreSQL database (real processes)', { skip }, () => {
  let database: TestDatabase;
  let receiver: Receiver;
  let balancer: Haproxy;
  let ports: number[];
  /** Each replica's WRS_MANAGEMENT_PORT: HAProxy's checks and Prometheus's scrapes go there. */
  let managementPorts: number[];
  const replicas: ServerProcess[] = [];
  // Keeps this run's counters apart from any other user of the machine's Redis.
  const redisPrefix = `wrs-test-${randomUUID().slice(0, 8)}:`;

  const startReplica = async (index: number, balancerPort: number): Promise<ServerProcess> => {
    const port = ports[index]!;
    const replica = await startServer({
      PORT: String(port),
      WRS_PUBLIC_URL: `http://127.0.0.1:${balancerPort}`,
      WRS_ALLOWED_HOSTS: `127.0.0.1:${balancerPort},127.0.0.1:${port}`,
      WRS_DATABASE_URL: database.url,
      WRS_LOG_LEVEL: 'warn',
      WRS_TRUST_PROXY: 'true',
      WRS_MANAGEMENT_PORT: String(managementPorts[index]!),
      WRS_RATE_LIMIT_PER_MINUTE: String(COMPANY_LIMIT),
      WRS_REDIS_URL: 'redis://127.0.0.1:6379',
      WRS_REDIS_PREFIX: redisPrefix,
      WRS_METRICS_TOKEN: METRICS_TOKEN,
      WRS_SHUTDOWN_DRAIN_MS: String(CHECK_INTERVAL_MS * (CHECK_FALL + 2)),
      WRS_SHUTDOWN_TIMEOUT_MS: '10000',
      WRS_WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
      WRS_WEBHOOK_POLL_MS: '100',
      WRS_WEBHOOK_RETRY_BASE_MS: '100',
      WRS_WEBHOOK_TIMEOUT_MS: '2000',
    });
    await eventually(
      () =>
        fetch(`http://127.0.0.1:${port}/readyz`).then(
          (response) => response.status,
          () => 0,
        ),
      (status) => status === 200,
      60_000,
    );
    return replica;
  };
  const allUp = async () => {
    for (let index = 0; index < REPLICAS; index++) await balancer.waitForState(`r${index}`, 'UP');
  };

  before(
    async () => {
      // Migrated already (a copy of the test processes' template), so the three replicas start at once.
      database = await createMigratedTestDatabase('postgres');
      receiver = await startReceiver();
      ports = await Promise.all(Array.from({ length: REPLICAS }, () => freePort()));
      managementPorts = await Promise.all(Array.from({ length: REPLICAS }, () => freePort()));
      const [balancerPort, statsPort] = [await freePort(), await freePort()];
      replicas.push(...(await Promise.all([0, 1, 2].map((index) => startReplica(index, balancerPort)))));
      balancer = await startHaproxy({ port: balancerPort, statsPort, backendPorts: ports, checkPorts: managementPorts });
      await allUp();
      const defined = await send(balancer.url, 'PUT', `/admin/v1/companies/acme/record-types/${RECORD_TYPE}`, {
        token: TEST_ADMIN_TOKEN,
        body: JSON.stringify({ name: 'Task', statuses: ['open', 'done'] }),
      });
      assert.ok(defined.status === 200 || defined.status === 201, JSON.stringify(defined.body));
    },
    { timeout: 300_000 },
  );
  after(
    async () => {
      await balancer?.stop();
      await Promise.all(replicas.map((replica) => replica.dispose()));
      await receiver?.close();
      await database?.drop();
    },
    { timeout: 300_000 },
  );

  it('SIGKILL of a replica mid-load: no acknowledged write, webhook delivery or streamed event is lost, and HAProxy routes around it', {
    timeout: 300_000,
  }, async (t) => {
    const userToken = await signUserToken({ company_id: 'acme', sub: 'u1' });
    const hook = await send(balancer.url, 'POST', '/v1/webhooks', {
      token: userToken,
      body: JSON.stringify({ url: `${receiver.base}/hook`, events: ['record.created'] }),
    });
    assert.equal(hook.status, 201, JSON.stringify(hook.body));
    // Streams open before any event, so each must end up with the whole feed.
    const streams = await Promise.all(Array.from({ length: REPLICAS * 2 }, () => followStream(balancer.url, userToken)));
    // A failed assertion must not leave clients reconnecting (the file would never end).
    t.after(() => {
      for (const stream of streams) stream.stop();
    });
    const victim = streams[0]!.replicas[0]!;
    const victimIndex = Number(victim.slice(1));
    assert.match(victim, /^r\d$/);

    const load = startMixedLoad({ baseUrl: balancer.url, company: 'acme', userToken, recordType: RECORD_TYPE, workers: 6, pauseMs: 40 });
    t.after(() => load.stop());
    await sleep(1500);
    const killedAt = Date.now();
    replicas[victimIndex]!.child.kill('SIGKILL');
    await replicas[victimIndex]!.exited;
    await balancer.waitForState(victim, 'DOWN', 10_000);
    const downAt = Date.now();
    await sleep(1500);
    const restartAt = Date.now();
    await replicas[victimIndex]!.dispose();
    replicas[victimIndex] = await startReplica(victimIndex, Number(new URL(balancer.url).port));
    await balancer.waitForState(victim, 'UP', 30_000);
    await sleep(1000);
    const acknowledged = await load.stop();

    const failed = acknowledged.answers.filter((answer) => answer.status === 0 || answer.status >= 500).length;
    t.diagnostic(
      `${acknowledged.answers.length} requests (${failed} failed at the kill), ${acknowledged.created.size} records created, ` +
        `${acknowledged.patched.size} patched, ${acknowledged.events.size} events ingested; out of rotation ${downAt - killedAt} ms after SIGKILL`,
    );
    // Readiness: the dead replica's checks fail at once, so it is out after `fall` checks.
    assert.ok(
      downAt - killedAt <= CHECK_INTERVAL_MS * (CHECK_FALL + 1) + 1000,
      `HAProxy took ${downAt - killedAt} ms to take the killed replica out (checks every ${CHECK_INTERVAL_MS} ms, ${CHECK_FALL} to fall)`,
    );
    const routedToDead = acknowledged.answers.filter((answer) => answer.replica === victim && answer.at > downAt && answer.at < restartAt);
    assert.deepEqual(routedToDead, [], 'no answer came from the killed replica while it was down');
    const served = new Set(acknowledged.answers.filter((answer) => answer.status > 0 && answer.status < 500).map((answer) => answer.replica));
    assert.equal(served.size, REPLICAS, 'every replica answered, the restarted one too');
    assert.ok(acknowledged.created.size >= 10 && acknowledged.events.size >= 10, 'the load made writes');

    // Every acknowledged write is there, through any replica.
    for (const id of acknowledged.created) {
      const read = await send(balancer.url, 'GET', `/v1/records/${id}`, { token: userToken });
      assert.equal(read.status, 200, `created record ${id}`);
      if (acknowledged.patched.has(id)) assert.equal((read.body as { status: string }).status, 'done', `patched record ${id}`);
    }
    const feed = await eventually(
      () => followFeed(balancer.url, userToken),
      (ids) => [...acknowledged.events].every((id) => ids.includes(id)),
      30_000,
    );
    assert.equal(new Set(feed).size, feed.length, 'the feed has no duplicate');

    // Every stream client, the ones cut by the kill too, reconnected with its last id and missed nothing.
    for (const stream of streams) {
      await stream.waitForCount(feed.length, 30_000);
      stream.stop();
      assert.deepEqual(stream.ids, feed);
    }
    assert.ok(streams[0]!.reconnects >= 1, 'the stream on the killed replica was cut and resumed');
    assert.notEqual(streams[0]!.replicas[1], victim);

    // Every record.created delivery arrived at least once (deliveries are leased in the database,
    // so the ones the killed replica held are sent by another once their lease runs out).
    await eventually(
      async () => new Set(receiver.on('/hook').map((delivery) => (JSON.parse(delivery.body) as { data: { id: string } }).data.id)),
      (delivered) => [...acknowledged.created].every((id) => delivered.has(id)),
      60_000,
    );
  });

  it('the company rate limit holds across the replicas within 10% (counted in Redis)', { timeout: 300_000 }, async (t) => {
    await allUp();
    const company = `metered-${randomUUID().slice(0, 8)}`;
    const token = await signUserToken({ company_id: company, sub: 'u1' });
    const statuses = new Map<number, number>();
    const replicasSeen = new Set<string | undefined>();
    let sent = 0;
    const total = Math.round(COMPANY_LIMIT * 1.5);
    await Promise.all(
      Array.from({ length: 24 }, async () => {
        while (sent < total) {
          sent++;
          const answer = await send(balancer.url, 'GET', '/v1/records?limit=1', { token });
          statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
          if (answer.status === 200) replicasSeen.add(answer.replica);
        }
      }),
    );
    const allowed = statuses.get(200) ?? 0;
    t.diagnostic(`${allowed} of ${total} requests allowed for a limit of ${COMPANY_LIMIT} a minute over ${REPLICAS} replicas`);
    assert.deepEqual([...statuses.keys()].sort(), [200, 429], `only 200 and 429: ${JSON.stringify([...statuses])}`);
    assert.ok(
      Math.abs(allowed - COMPANY_LIMIT) <= COMPANY_LIMIT * 0.1,
      `${allowed} of ${total} allowed across ${REPLICAS} replicas for a limit of ${COMPANY_LIMIT} a minute`,
    );
    assert.equal(replicasSeen.size, REPLICAS, 'every replica allowed some: one budget, shared');
  });

  it('Prometheus scrapes every replica with the metrics token (the documented scrape configuration)', {
    timeout: 300_000,
    skip: !existsSync(PROMETHEUS_BINARY) && `${PROMETHEUS_BINARY} is missing (apt-get install prometheus; .ci/run installs it)`,
  }, async () => {
    await allUp();
    const userToken = await signUserToken({ company_id: 'acme', sub: 'u1' });
    const id = (await send(balancer.url, 'POST', `/v1/records/${RECORD_TYPE}`, { token: userToken, body: '{}' })).body as { id: string };
    for (let i = 0; i < REPLICAS * 3; i++) assert.equal((await send(balancer.url, 'GET', `/v1/records/${id.id}`, { token: userToken })).status, 200);

    const prometheus = await startPrometheus({
      port: await freePort(),
      targets: managementPorts.map((port) => `127.0.0.1:${port}`),
      token: METRICS_TOKEN,
      intervalSeconds: 1,
    });
    try {
      await eventually(
        () => prometheus.query('up{job="wrs"}'),
        (samples) => samples.length === REPLICAS && samples.every((sample) => sample.value === 1),
        30_000,
      );
      const perReplica = await eventually(
        () => prometheus.query('sum by (instance) (wrs_http_request_duration_seconds_count{method="GET",route="/v1/records/:record",status_code="200"})'),
        (samples) => samples.length === REPLICAS && samples.every((sample) => sample.value >= 1),
        30_000,
      );
      assert.deepEqual(new Set(perReplica.map((sample) => sample.metric.instance)), new Set(managementPorts.map((port) => `127.0.0.1:${port}`)));
      assert.deepEqual(await prometheus.query(`wrs_http_request_duration_seconds_count{route=~".*${id.id}.*"}`), [], 'no series names a raw id');
    } finally {
      await prometheus.stop();
    }
  });

  // Last, so that no replica has to be started again after it.
  it('SIGTERM of a replica under load: it leaves the rotation before closing, so no request fails', { timeout: 300_000 }, async () => {
    await allUp();
    const userToken = await signUserToken({ company_id: 'acme', sub: 'u1' });
    const answers: Awaited<ReturnType<typeof send>>[] = [];
    let stopping = false;
    const readers = Array.from({ length: 4 }, async () => {
      while (!stopping) {
        answers.push(await send(balancer.url, 'GET', '/v1/records?limit=5', { token: userToken }));
        await sleep(20);
      }
    });
    await sleep(500);
    const leaving = replicas[1]!;
    leaving.child.kill('SIGTERM');
    await balancer.waitForState('r1', 'DOWN', 10_000);
    const { code } = await leaving.exited;
    await sleep(300);
    stopping = true;
    await Promise.all(readers);

    assert.equal(code, 0, 'the replica stopped cleanly');
    const failed = answers.filter((answer) => answer.status !== 200);
    assert.deepEqual(failed, [], 'every request during the shutdown was answered 200');
    assert.ok(
      answers.some((answer) => answer.replica === 'r1'),
      'the leaving replica served before it left',
    );
  });
});

/** Every event id of the company's change feed, from its beginning to its current end. */
async function followFeed(baseUrl: string, token: string): Promise<string[]> {
  const ids: string[] = [];
  let cursor: string | undefined;
  for (;;) {
    const page = await send(baseUrl, 'GET', `/v1/events/changes?limit=1000${cursor ? `&after=${encodeURIComponent(cursor)}` : ''}`, { token });
    assert.equal(page.status, 200, JSON.stringify(page.body));
    const body = page.body as { results: { id: string }[]; next_cursor: string };
    ids.push(...body.results.map((event) => event.id));
    if (body.results.length < 1000) return ids;
    cursor = body.next_cursor;
  }
}
