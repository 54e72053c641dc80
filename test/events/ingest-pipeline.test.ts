import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { DataVersions } from '../../src/domain/data-versions.port.js';
import type { StoredEvent } from '../../src/domain/events/event.js';
import type { EventsRepository, PreparedEvents } from '../../src/domain/events/events-repository.port.js';
import { createEventsService } from '../../src/domain/events/events-service.js';
import { createFeedCursors } from '../../src/domain/events/feed-cursor.js';
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

/** The fake repository's prepared batch: the events as they are, and when they were prepared. */
interface FakePrepared extends PreparedEvents {
  readonly events: readonly StoredEvent[];
}

type Write = (companyId: string, events: readonly StoredEvent[]) => Promise<number>;

/** A service over an in-memory transaction whose repository's writes the test controls. */
function serviceWith(write: Write) {
  const outcome = { committed: false, rolledBack: false, prepared: 0 };
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
    prepare: async (companyId: string, events: readonly StoredEvent[]): Promise<FakePrepared> => {
      outcome.prepared++;
      return { companyId, rows: events.length, events };
    },
    write: (prepared: PreparedEvents) => write(prepared.companyId, (prepared as FakePrepared).events),
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
    cursors: createFeedCursors(Buffer.alloc(32)),
    outbox: { enqueue: async () => undefined },
  });
  return { service, outcome };
}

describe('events ingest: batches are read while the one before is written', () => {
  it('reads the next batch during a write, and writes every event once, in order', async () => {
    const body = countedBody(32_000);
    const readDuringWrites: number[] = [];
    const preparedDuringWrites: number[] = [];
    const ids: string[] = [];
    const { service, outcome } = serviceWith(async (_company, events) => {
      const [readBefore, preparedBefore] = [body.read, outcome.prepared];
      // A slow database: the body goes on being read meanwhile. It answers once the next batch
      // is prepared, or a while after the body has all been read (there may be none), or at
      // the latest after 2 s (a service that reads nothing meanwhile fails below).
      const started = Date.now();
      const waited = () => Date.now() - started;
      while (outcome.prepared === preparedBefore && !(body.read === 32_000 && waited() > 200) && waited() < 2000) {
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      readDuringWrites.push(body.read - readBefore);
      preparedDuringWrites.push(outcome.prepared - preparedBefore);
      ids.push(...events.map((event) => event.id));
      return events.length;
    });
    const { ingested } = await service.ingest('c', body.lines, { format: 'ndjson' });
    assert.equal(ingested, 32_000);
    assert.ok(outcome.committed);
    assert.deepEqual(
      ids,
      Array.from({ length: 32_000 }, (_, i) => `e-${i}`),
    );
    // Batches of 5,000: the first four from the 20,000 read before the transaction, then the
    // body is read on while the last of those is written. Each batch but the last has the next
    // one prepared (encoded for storage) while it is written.
    assert.deepEqual(readDuringWrites, [0, 0, 0, 5000, 5000, 2000, 0], 'the body read while each batch was written');
    assert.deepEqual(preparedDuringWrites, [1, 1, 1, 1, 1, 1, 0]);
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
