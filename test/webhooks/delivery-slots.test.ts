import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ClaimRequest, ClaimedDelivery, DeliveriesRepository, DeliveryOutcome } from '../../src/domain/webhooks/deliveries-repository.port.js';
import { createDeliveryWorker } from '../../src/domain/webhooks/delivery-worker.js';
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
  return { repository, written, releaseWrites: () => held.splice(0).forEach((release) => release()), heldWrites: () => held.length };
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
