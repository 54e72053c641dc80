import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { DataVersions } from '../../src/domain/data-versions.port.js';
import type { EventsRepository } from '../../src/domain/events/events-repository.port.js';
import { createEventsService } from '../../src/domain/events/events-service.js';
import type { TransactionScope, UnitOfWork } from '../../src/domain/unit-of-work.js';
import { ManualClock } from '../../src/lib/clock.js';

/** NDJSON lines of `count` events, counting how many the service has pulled so far. */
function countedBody(count: number) {
  const body = { read: 0, lines: lines() };
  async function* lines() {
    for (let i = 0; i < count; i++) {
      body.read++;
      yield `{"id":"e-${i}","type":"t"}\n`;
    }
  }
  return body;
}

/** A service over an in-memory transaction whose repository's writes the test controls. */
function serviceWith(write: EventsRepository['write']) {
  const outcome = { committed: false, rolledBack: false };
  const unitOfWork: UnitOfWork = {
    async run(work) {
      try {
        const result = await work({} as TransactionScope);
        outcome.committed = true;
        return result;
      } catch (error) {
        outcome.rolledBack = true;
        throw error;
      }
    },
    afterCommit: () => undefined,
  };
  const repository = {
    write,
    afterBulkWrite: async () => undefined,
    feedPositionBefore: async () => ({ xid: 0, seq: 0 }),
    feedEnd: async () => ({ xid: 0, seq: 0 }),
  } as unknown as EventsRepository;
  const dataVersions: DataVersions = { bump: async () => undefined, current: async () => 0 };
  const service = createEventsService({
    repository,
    unitOfWork,
    dataVersions,
    clock: new ManualClock('2026-01-01T00:00:00.000Z'),
    outbox: { enqueue: async () => undefined },
  });
  return { service, outcome };
}

describe('events ingest: batches are read while the one before is written', () => {
  it('reads the next batch during a write, and writes every event once, in order', async () => {
    const body = countedBody(32_000);
    const readDuringWrites: number[] = [];
    const ids: string[] = [];
    const { service, outcome } = serviceWith(async (_company, events) => {
      const before = body.read;
      // A slow database: the body goes on being read meanwhile.
      await new Promise((resolve) => setTimeout(resolve, 50));
      readDuringWrites.push(body.read - before);
      ids.push(...events.map((event) => event.id));
      return events.length;
    });
    const { ingested } = await service.ingest('c', body.lines, { format: 'ndjson' });
    assert.equal(ingested, 32_000);
    assert.ok(outcome.committed);
    assert.deepEqual(ids, Array.from({ length: 32_000 }, (_, i) => `e-${i}`));
    assert.ok(readDuringWrites[0]! > 0, `nothing was read while the first batch was written: ${readDuringWrites.join(', ')}`);
  });

  it('a failed write refuses the ingest with its error and rolls back, once the batch being read is in', async () => {
    const body = countedBody(40_000);
    let writes = 0;
    const { service, outcome } = serviceWith(async () => {
      writes++;
      throw new Error('the database went away');
    });
    await assert.rejects(service.ingest('c', body.lines, { format: 'ndjson' }), /the database went away/);
    assert.equal(writes, 1);
    assert.ok(outcome.rolledBack && !outcome.committed);
    // The read-ahead (20,000) and at most one more batch (5,000), not the whole body.
    assert.ok(body.read <= 25_001, `read ${body.read} events`);
  });
});
