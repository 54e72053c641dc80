import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ClaimRequest, ClaimedDelivery, DeliveriesRepository, DeliveryOutcome } from '../../src/domain/webhooks/deliveries-repository.port.js';
import { createDeliveryWorker } from '../../src/domain/webhooks/delivery-worker.js';
import { createDeliveryShares } from '../../src/domain/webhooks/delivery-shares.js';
import type { WebhookSender } from '../../src/domain/webhooks/webhook-sender.port.js';
import { systemClock } from '../../src/lib/clock.js';

const NOW = new Date().toISOString();

function due(id: string): ClaimedDelivery {
  return {
    company_id: 'acme',
    id,
    webhook_id: 'wh-1',
    event_type: 'record.created',
    payload: '{}',
    status: 'pending',
    attempts: 0,
    last_status_code: null,
    last_error: null,
    next_attempt_at: NOW,
    lease_until: NOW,
    lease_owner: null,
    created_at: NOW,
    delivered_at: null,
    webhook: { url: 'https://receiver.example/hook', secret: 'whsec_c2VjcmV0', enabled: true },
  };
}

/** An outbox in memory whose outcome writes wait until the test lets them through. */
function heldOutbox(deliveries: ClaimedDelivery[]) {
  const waiting = [...deliveries];
  const written: Array<{ id: string; outcome: DeliveryOutcome }> = [];
  const held: Array<() => void> = [];
  const repository = {
    async claim({ limit }: ClaimRequest) {
      const taken = waiting.splice(0, limit);
      return { deliveries: taken, moreDue: waiting.length > 0 };
    },
    finish(_owner: string, outcomes: ReadonlyArray<{ company_id: string; id: string; outcome: DeliveryOutcome }>) {
      return new Promise<void>((resolve) =>
        held.push(() => {
          written.push(...outcomes.map(({ id, outcome }) => ({ id, outcome })));
          resolve();
        }),
      );
    },
  } as Pick<DeliveriesRepository, 'claim' | 'finish'> as DeliveriesRepository;
  return {
    repository,
    written,
    releaseWrites: () => {
      for (const release of held.splice(0)) release();
    },
    heldWrites: () => held.length,
  };
}

async function until(condition: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 5000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

describe('delivery worker: an attempt frees its slot once its outcome is queued', () => {
  it('makes the next attempt while the outcome of the last is still being written, and stores both', async () => {
    const outbox = heldOutbox([due('d-1'), due('d-2')]);
    const sent: string[] = [];
    const sender: WebhookSender = {
      async send({ headers }) {
        sent.push(headers['webhook-id']!);
        return { statusCode: 204, body: '' };
      },
      close: () => undefined,
    };
    const worker = createDeliveryWorker({
      deliveries: outbox.repository,
      webhooks: { update: async () => undefined } as never,
      sender,
      secretBox: { seal: (text) => text, open: (sealed) => sealed },
      clock: systemClock,
      settings: { timeoutMs: 1000, retryBaseMs: 1000, maxAttempts: 3, concurrency: 1, pollMs: 60_000 },
    });
    worker.start((error) => assert.fail(String(error)));
    try {
      await until(() => outbox.heldWrites() === 1, "the first attempt's outcome to be written");
      // The one slot is free although that write has not finished: the second delivery is attempted.
      await until(() => sent.length === 2, 'the second attempt');
      assert.deepEqual(sent, ['d-1', 'd-2']);
      assert.equal(outbox.written.length, 0, 'no outcome is stored yet');
    } finally {
      const stopping = worker.stop();
      // Stopping waits for every queued outcome to be written.
      await until(() => outbox.heldWrites() > 0, 'the last outcomes to be written');
      while (outbox.heldWrites() > 0) {
        outbox.releaseWrites();
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      await stopping;
    }
    assert.deepEqual(outbox.written.map(({ id, outcome }) => [id, outcome.status]).sort(), [
      ['d-1', 'delivered'],
      ['d-2', 'delivered'],
    ]);
  });
});

describe("delivery shares: no company takes every slot, nor one webhook its company's", () => {
  const due = (company_id: string, webhook_id: string, n: number) =>
    Array.from({ length: n }, (_, i) => ({ company_id, webhook_id, id: `${company_id}-${webhook_id}-${i}` }));
  const webhooksOf = (deliveries: ReadonlyArray<{ webhook_id: string }>) => deliveries.map((delivery) => delivery.webhook_id);
  const companiesOf = (deliveries: ReadonlyArray<{ company_id: string }>) => deliveries.map((delivery) => delivery.company_id);

  it('gives a company alone half the slots, its webhooks in turn, and leaves room for a webhook of its own not delivering', () => {
    const shares = createDeliveryShares(16);
    // Of the company's 8, three webhooks delivering get 2 each (8 / 4): a fourth would find room.
    const chosen = shares.choose([...due('a', 'a1', 10), ...due('a', 'a2', 10), ...due('a', 'a3', 10)], 16);
    assert.deepEqual(webhooksOf(chosen), ['a1', 'a2', 'a3', 'a1', 'a2', 'a3']);
    chosen.forEach(shares.taken);
    assert.deepEqual(shares.full(), { webhooks: ['a1', 'a2', 'a3'], companies: [] });
    assert.deepEqual(webhooksOf(shares.choose([...due('a', 'a1', 3), ...due('a', 'a4', 3)], 16)), ['a4']);
    // Another company's deliveries, behind the first one's, come first: it has none in flight.
    assert.deepEqual(companiesOf(shares.choose([...due('a', 'a4', 5), ...due('b', 'b1', 2)], 2)), ['b', 'b']);

    // Taken while fewer webhooks delivered, two hold 4 and 2 of the company's 8: a third still finds room.
    const alone = createDeliveryShares(16);
    [...due('a', 'a1', 4), ...due('a', 'a2', 2)].forEach(alone.taken);
    assert.deepEqual(alone.full(), { webhooks: ['a1', 'a2'], companies: [] });
    assert.deepEqual(webhooksOf(alone.choose([...due('a', 'a1', 3), ...due('a', 'a2', 3), ...due('a', 'a3', 3)], 16)), ['a3', 'a3']);
  });

  it('gives a freed slot to a company below its share, never to one above it', () => {
    const shares = createDeliveryShares(16);
    // The first company took 8 while it was alone; beside a second its share is 5 (16 / 3).
    due('a', 'a1', 4)
      .concat(due('a', 'a2', 2), due('a', 'a3', 2))
      .forEach(shares.taken);
    const second = shares.choose(due('c', 'c1', 6), 16);
    assert.deepEqual(webhooksOf(second), ['c1', 'c1']);
    second.forEach(shares.taken);
    assert.deepEqual(shares.full(), { webhooks: ['c1'], companies: ['a'] });
    // One of the first company's attempts ends: it still holds more than its share, so the freed slot goes to another.
    shares.released({ company_id: 'a', webhook_id: 'a1', id: 'a-a1-0' });
    assert.deepEqual(shares.full().companies, ['a']);
    assert.deepEqual(companiesOf(shares.choose([...due('a', 'a4', 3), ...due('b', 'b1', 3)], 1)), ['b']);
  });

  it('gives one slot at least to each company, however many there are', () => {
    const shares = createDeliveryShares(4);
    assert.deepEqual(webhooksOf(shares.choose([...due('a', 'a1', 2), ...due('b', 'b1', 2), ...due('c', 'c1', 2)], 4)), ['a1', 'b1', 'c1']);
  });

  it('gives a tie to the webhook served least recently, not to the older delivery', () => {
    const shares = createDeliveryShares(64);
    const [first] = due('a', 'a1', 1);
    shares.taken(first!);
    shares.released(first!);
    assert.deepEqual(webhooksOf(shares.choose([...due('a', 'a1', 3), ...due('a', 'a2', 1)], 1)), ['a2']);
  });
});
