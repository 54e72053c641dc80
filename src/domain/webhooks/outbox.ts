import type { Clock } from '../../lib/clock.js';
import { uuidv7 } from '../../lib/ids.js';
import type { TransactionScope, UnitOfWork } from '../unit-of-work.js';
import type { DeliveriesRepository } from './deliveries-repository.port.js';
import type { WebhookEventType } from './event-types.js';
import type { WebhooksRepository } from './webhooks-repository.port.js';

/**
 * Where a change announces itself to webhooks. `enqueue` runs inside the change's own
 * transaction: the deliveries are stored if and only if the change is. A company without a
 * subscriber for the type pays one indexed read.
 */
export interface WebhookOutbox {
  enqueue(scope: TransactionScope, companyId: string, type: WebhookEventType, data: unknown): Promise<void>;
}

export interface WebhookOutboxDeps {
  webhooks: Pick<WebhooksRepository, 'subscribers'>;
  deliveries: Pick<DeliveriesRepository, 'insertMany'>;
  unitOfWork: Pick<UnitOfWork, 'afterCommit'>;
  clock: Clock;
  /** Called once the transaction that stored deliveries has committed (wakes the delivery worker). */
  onCommitted: () => void;
}

export function createWebhookOutbox({ webhooks, deliveries, unitOfWork, clock, onCommitted }: WebhookOutboxDeps): WebhookOutbox {
  return {
    async enqueue(scope, companyId, type, data) {
      const subscribers = await webhooks.subscribers(companyId, type, scope);
      if (subscribers.length === 0) return;
      const now = clock.now();
      const createdAt = now.toISOString();
      const payload = JSON.stringify({ type, timestamp: createdAt, data });
      await deliveries.insertMany(
        companyId,
        subscribers.map((webhookId) => ({ id: `msg_${uuidv7(now.getTime())}`, webhookId, eventType: type, payload, createdAt })),
        scope,
      );
      unitOfWork.afterCommit(scope, onCommitted);
    },
  };
}
