import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, it } from 'node:test';
import type pg from 'pg';
import { createReadTimeouts } from '../../src/storage/postgres-read-timeout.js';

/** A pooled client whose connection records being closed. */
function fakeClient() {
  const client = { closed: 0, connection: { stream: { destroy: () => (client.closed += 1) } } };
  return client;
}
const asPoolClient = (client: ReturnType<typeof fakeClient>) => client as unknown as pg.PoolClient;

describe('PostgreSQL read timeouts', () => {
  it('closes the connection of a query left unanswered past the timeout, and only that one', async () => {
    const timeouts = createReadTimeouts(100);
    try {
      const silent = fakeClient();
      const answered = fakeClient();
      void timeouts.watch(asPoolClient(silent), new Promise(() => undefined));
      assert.equal(await timeouts.watch(asPoolClient(answered), sleep(20, 'rows')), 'rows');
      await sleep(300);
      assert.equal(silent.closed, 1);
      assert.equal(answered.closed, 0);
    } finally {
      timeouts.stop();
    }
  });

  it('times the next query on a client from when the one before it was answered', async () => {
    const timeouts = createReadTimeouts(150);
    try {
      const client = fakeClient();
      const first = timeouts.watch(asPoolClient(client), sleep(100));
      const second = timeouts.watch(asPoolClient(client), sleep(200));
      await first;
      await second;
      assert.equal(client.closed, 0, 'each query was answered within 150 ms of being sent');
      await sleep(200);
      assert.equal(client.closed, 0, 'a client with nothing under way is left alone');
    } finally {
      timeouts.stop();
    }
  });

  it('passes a failed answer on as it is', async () => {
    const timeouts = createReadTimeouts(1000);
    try {
      await assert.rejects(timeouts.watch(asPoolClient(fakeClient()), Promise.reject(new Error('relation does not exist'))), /relation does not exist/);
    } finally {
      timeouts.stop();
    }
  });
});
