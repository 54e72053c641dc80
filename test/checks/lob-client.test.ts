import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { AppError } from '../../src/errors/app-error.js';
import { systemClock } from '../../src/lib/clock.js';
import { createSecretBox } from '../../src/lib/secret-box.js';
import { createLobClient } from '../../src/providers/checks/lob/lob-client.js';
import { rateLimitWaitMs, type LobRetryPolicy } from '../../src/providers/checks/lob/retry-policy.js';
import { startFakeLob, type FakeLob } from './fake-lob-server.js';

const KEY = 'test_client_0123456789abcdef';

describe('Lob client: retries and backoff (injected sleep, no real waiting)', () => {
  let lob: FakeLob;
  before(async () => {
    lob = await startFakeLob();
  });
  after(() => lob.close());

  const client = (apiKey: string, waits: number[], overrides: Partial<LobRetryPolicy> = {}) =>
    createLobClient({
      apiKey,
      baseUrl: lob.baseUrl,
      timeoutMs: 2_000,
      clock: systemClock,
      retry: { maxRetries: 3, baseDelayMs: 100, budgetMs: 60_000, sleep: async (ms) => void waits.push(ms), ...overrides },
    });
  const listOnce = (c: ReturnType<typeof client>) => c.list('checks', new URLSearchParams({ limit: '10' }), c.newBudget());

  it("waits until Lob's X-Rate-Limit-Reset before retrying a 429", async () => {
    lob.addAccount(`${KEY}_reset`, [], { rateLimited: 1, resetInSeconds: 5 });
    const waits: number[] = [];
    const list = await listOnce(client(`${KEY}_reset`, waits));
    assert.deepEqual(list.data, []);
    assert.equal(waits.length, 1);
    assert.ok(waits[0]! > 4_000 && waits[0]! <= 6_000, `waited ${waits[0]} ms`);
  });

  it('prefers Retry-After when Lob sends it', async () => {
    lob.addAccount(`${KEY}_retry_after`, [], { rateLimited: 2, resetInSeconds: 50, retryAfterSeconds: 7 });
    const waits: number[] = [];
    await listOnce(client(`${KEY}_retry_after`, waits));
    assert.deepEqual(waits, [7_000, 7_000]);
  });

  it('backs off exponentially on 5xx', async () => {
    lob.addAccount(`${KEY}_5xx`, [], { failures: 3, failureStatus: 502 });
    const waits: number[] = [];
    await listOnce(client(`${KEY}_5xx`, waits));
    assert.deepEqual(waits, [100, 200, 400]);
  });

  it('stops at the total budget and reports the last failure', async () => {
    lob.addAccount(`${KEY}_budget`, [], { failures: Infinity, failureStatus: 500 });
    const waits: number[] = [];
    await assert.rejects(listOnce(client(`${KEY}_budget`, waits, { budgetMs: 350 })), (error: unknown) => {
      assert.ok(error instanceof AppError);
      assert.equal(error.status, 502);
      assert.equal(error.code, 'provider_error');
      return true;
    });
    assert.deepEqual(waits, [100, 200], 'the third wait (400 ms) would pass the 350 ms budget');
  });

  it('turns a 429 it may not wait for into 503 rate_limited with Retry-After', async () => {
    lob.addAccount(`${KEY}_long`, [], { rateLimited: Infinity, retryAfterSeconds: 90 });
    const waits: number[] = [];
    await assert.rejects(listOnce(client(`${KEY}_long`, waits, { budgetMs: 10_000 })), (error: unknown) => {
      assert.ok(error instanceof AppError);
      assert.equal(error.status, 503);
      assert.equal(error.code, 'rate_limited');
      assert.equal(error.headers['retry-after'], '90');
      return true;
    });
    assert.deepEqual(waits, []);
  });

  it('sends the key as the Basic user name with an empty password', async () => {
    lob.addAccount(`${KEY}_auth`, []);
    await listOnce(client(`${KEY}_auth`, []));
    assert.equal(lob.requests.at(-1)!.apiKey, `${KEY}_auth`);
  });
});

describe('rate-limit headers', () => {
  const now = Date.parse('2026-11-21T12:00:00.000Z');
  const headers = (entries: Record<string, string>) => new Headers(entries);

  it('reads Retry-After in seconds or as an HTTP date', () => {
    assert.equal(rateLimitWaitMs(headers({ 'retry-after': '3' }), now), 3_000);
    assert.equal(rateLimitWaitMs(headers({ 'retry-after': 'Sat, 21 Nov 2026 12:00:10 GMT' }), now), 10_000);
  });

  it('reads X-Rate-Limit-Reset and RateLimit-Reset as UTC epoch seconds', () => {
    assert.equal(rateLimitWaitMs(headers({ 'x-rate-limit-reset': String(now / 1000 + 4) }), now), 4_000);
    assert.equal(rateLimitWaitMs(headers({ 'ratelimit-reset': String(now / 1000 + 2) }), now), 2_000);
    assert.equal(rateLimitWaitMs(headers({ 'x-rate-limit-reset': String(now / 1000 - 30) }), now), 0);
    assert.equal(rateLimitWaitMs(headers({ 'x-rate-limit-reset': '6' }), now), 6_000, 'a small number is seconds from now');
  });

  it('says nothing when the headers are absent or unreadable', () => {
    assert.equal(rateLimitWaitMs(headers({}), now), undefined);
    assert.equal(rateLimitWaitMs(headers({ 'x-rate-limit-reset': 'soon' }), now), undefined);
  });
});

describe('secret box', () => {
  const box = createSecretBox(Buffer.alloc(32, 7));

  it('round-trips, with a fresh nonce each time', () => {
    const a = box.seal('test_secret_key', 'company-a');
    const b = box.seal('test_secret_key', 'company-a');
    assert.notEqual(a, b);
    assert.ok(!a.includes('test_secret_key'));
    assert.equal(box.open(a, 'company-a'), 'test_secret_key');
  });

  it('refuses another context, another key and an altered ciphertext', () => {
    const sealed = box.seal('test_secret_key', 'company-a');
    assert.throws(() => box.open(sealed, 'company-b'));
    assert.throws(() => createSecretBox(Buffer.alloc(32, 8)).open(sealed, 'company-a'));
    const bytes = Buffer.from(sealed.slice(3), 'base64url');
    bytes[bytes.length - 1]! ^= 1;
    assert.throws(() => box.open(`v1:${bytes.toString('base64url')}`, 'company-a'));
  });
});
