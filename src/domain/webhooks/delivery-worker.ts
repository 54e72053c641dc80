import { randomUUID } from 'node:crypto';
import type { Clock } from '../../lib/clock.js';
import type { SecretBox } from '../../lib/secret-box.js';
import type { ClaimedDelivery, DeliveriesRepository, DeliveryOutcome } from './deliveries-repository.port.js';
import type { AttemptOutcome, DeliveryObserver } from './delivery-observer.port.js';
import { createDeliveryShares } from './delivery-shares.js';
import { retryDelayMs } from './retry-schedule.js';
import { signingKey, webhookSignature } from './signature.js';
import type { WebhookSender } from './webhook-sender.port.js';
import type { WebhooksRepository } from './webhooks-repository.port.js';
import { secretContext } from './webhooks-service.js';

/** How long wakes and outcomes wait to be served together. */
const BATCH_WINDOW_MS = 10;
const OUTCOME_BATCH = 128;
/** Due deliveries one claim reads at most, to choose from. */
const CLAIM_READ_MAX = 1024;

/** What the receiver answered to an attempt, as its outcome records it. */
type ReceiverAnswer = { readonly statusCode: number | null; readonly body: string | null };
const NO_ANSWER: ReceiverAnswer = { statusCode: null, body: null };

export interface DeliveryWorkerSettings {
  readonly timeoutMs: number;
  readonly retryBaseMs: number;
  readonly maxAttempts: number;
  readonly concurrency: number;
  readonly pollMs: number;
}

export interface DeliveryWorkerDeps {
  deliveries: DeliveriesRepository;
  webhooks: Pick<WebhooksRepository, 'update'>;
  sender: WebhookSender;
  secretBox: SecretBox;
  clock: Clock;
  settings: DeliveryWorkerSettings;
  /** Told each attempt's outcome, and the lag of each delivery made. */
  observer?: DeliveryObserver;
}

const ATTEMPT_OUTCOMES: Readonly<Record<DeliveryOutcome['status'], AttemptOutcome>> = {
  delivered: 'delivered',
  pending: 'retrying',
  failed: 'failed',
};

/**
 * Delivers the outbox: claims due deliveries under a lease, makes each attempt, records the
 * outcome. Every serving process runs one; a lease keeps an attempt to one of them, and a
 * lease that ends (its process died) makes the delivery due again.
 */
export interface DeliveryWorker {
  /** `onError`: where a failure of the worker itself (not of a receiver, e.g. the database) is reported. */
  start(onError?: (error: unknown) => void): void;
  /** Something was enqueued or made due: look now rather than at the next poll. */
  wake(): void;
  /** Stops claiming and waits for the attempts in flight (each ends by its timeout). */
  stop(): Promise<void>;
}

export function createDeliveryWorker(deps: DeliveryWorkerDeps): DeliveryWorker {
  const { deliveries, webhooks, sender, secretBox, clock, settings, observer } = deps;
  const owner = randomUUID();
  // Neither a receiver nor a company can take every slot: a slow one cannot stall the rest.
  const shares = createDeliveryShares(settings.concurrency);
  // Long enough for the attempt and its outcome; a process that dies holding it delays the retry by this much.
  const leaseMs = 2 * settings.timeoutMs + 5000;
  const inFlight = new Set<Promise<void>>();
  const keys = new Map<string, Buffer>();
  let started = false;
  let stopped = false;
  let claiming = false;
  let wakeRequested = false;
  let moreDue = false;
  let poll: NodeJS.Timeout | undefined;
  let wakeTimer: NodeJS.Timeout | undefined;
  // Outcomes are written together: one transaction for many attempts, not one each.
  let outcomes: Array<{ company_id: string; id: string; outcome: DeliveryOutcome }> = [];
  let flushTimer: NodeJS.Timeout | undefined;
  let flushing: Promise<void> = Promise.resolve();

  let report: (error: unknown) => void = () => undefined;

  function pump(): void {
    if (!started || stopped) return;
    if (claiming) {
      wakeRequested = true;
      return;
    }
    claiming = true;
    void claimWhileRoom()
      .catch(report)
      .finally(() => {
        claiming = false;
        if (wakeRequested) pump();
      });
  }

  async function claimWhileRoom(): Promise<void> {
    for (;;) {
      wakeRequested = false;
      const room = settings.concurrency - inFlight.size;
      if (room <= 0 || stopped) return;
      const now = clock.now();
      const full = shares.full();
      let passedOver = false;
      const claim = await deliveries.claim({
        now: now.toISOString(),
        leaseUntil: new Date(now.getTime() + leaseMs).toISOString(),
        owner,
        // More than there is room for, so that the turn can go to a company or webhook whose deliveries are not the oldest.
        limit: Math.min(4 * room, CLAIM_READ_MAX),
        skipWebhooks: full.webhooks,
        skipCompanies: full.companies,
        choose: (due) => {
          const chosen = shares.choose(due, room);
          passedOver = chosen.length < due.length;
          return chosen;
        },
      });
      for (const delivery of claim.deliveries) begin(delivery);
      moreDue = claim.moreDue;
      // What was passed over belongs to shares this claim filled: the next skips them, and may find other companies' deliveries.
      const claimAgain = claim.deliveries.length === room || (passedOver && claim.deliveries.length > 0);
      if (!wakeRequested && !claimAgain) return;
    }
  }

  /** Commits (and attempts) that end close together are served by one claim. */
  function wakeSoon(): void {
    if (!started || stopped) return;
    wakeTimer ??= setTimeout(() => {
      wakeTimer = undefined;
      pump();
    }, BATCH_WINDOW_MS);
  }

  function begin(delivery: ClaimedDelivery): void {
    shares.taken(delivery);
    const run: Promise<void> = attempt(delivery)
      .catch(report)
      .finally(() => {
        inFlight.delete(run);
        shares.released(delivery);
        if (moreDue || wakeRequested) wakeSoon();
      });
    inFlight.add(run);
  }

  function keyOf(delivery: ClaimedDelivery, sealed: string): Buffer {
    let key = keys.get(sealed);
    if (!key) {
      key = signingKey(secretBox.open(sealed, secretContext(delivery.company_id, delivery.webhook_id)));
      if (keys.size >= 10_000) keys.clear();
      keys.set(sealed, key);
    }
    return key;
  }

  async function attempt(delivery: ClaimedDelivery): Promise<void> {
    const { webhook } = delivery;
    const attempts = delivery.attempts + 1;
    if (!webhook?.enabled) {
      finish(delivery, failed(attempts, NO_ANSWER, webhook ? 'the webhook is disabled' : 'the webhook was deleted'));
      return;
    }
    const started = clock.now();
    const timestamp = Math.floor(started.getTime() / 1000);
    let signature: string;
    try {
      signature = webhookSignature(keyOf(delivery, webhook.secret), delivery.id, timestamp, delivery.payload);
      // During a rotation's overlap the previous secret signs too: a receiver holding either verifies (Standard Webhooks).
      const previous = webhook.previousSecret;
      if (previous && previous.expiresAt > started.toISOString()) {
        signature += ` ${webhookSignature(keyOf(delivery, previous.sealed), delivery.id, timestamp, delivery.payload)}`;
      }
    } catch {
      finish(delivery, retryOrFail(attempts, NO_ANSWER, 'the signing secret cannot be opened (was WRS_ENCRYPTION_KEY changed?)'));
      return;
    }
    const answer = await sender.send({
      url: webhook.url,
      body: delivery.payload,
      timeoutMs: settings.timeoutMs,
      headers: {
        'content-type': 'application/json',
        'user-agent': 'wrs-webhooks/1',
        'webhook-id': delivery.id,
        'webhook-timestamp': String(timestamp),
        'webhook-signature': signature,
      },
    });
    const now = clock.now().toISOString();
    if ('error' in answer) {
      finish(delivery, retryOrFail(attempts, NO_ANSWER, answer.error));
    } else if (answer.statusCode >= 200 && answer.statusCode < 300) {
      finish(delivery, {
        status: 'delivered',
        attempts,
        last_status_code: answer.statusCode,
        last_error: null,
        last_response_body: answer.body,
        next_attempt_at: now,
        delivered_at: now,
        lease_until: now,
      });
    } else if (answer.statusCode === 410) {
      await webhooks.update(delivery.company_id, delivery.webhook_id, { enabled: false, updated_at: now });
      finish(delivery, failed(attempts, answer, 'the receiver answered 410 Gone: the webhook is disabled'));
    } else {
      const reason =
        answer.statusCode >= 300 && answer.statusCode < 400
          ? `the receiver answered ${answer.statusCode} (redirects are not followed)`
          : `the receiver answered ${answer.statusCode}`;
      finish(delivery, retryOrFail(attempts, answer, reason));
    }
  }

  function failed(attempts: number, answer: ReceiverAnswer, error: string): DeliveryOutcome {
    const now = clock.now().toISOString();
    return {
      status: 'failed',
      attempts,
      last_status_code: answer.statusCode,
      last_error: error,
      last_response_body: answer.body,
      next_attempt_at: now,
      delivered_at: null,
      lease_until: now,
    };
  }

  function retryOrFail(attempts: number, answer: ReceiverAnswer, error: string): DeliveryOutcome {
    if (attempts >= settings.maxAttempts) return failed(attempts, answer, error);
    const now = clock.now();
    return {
      status: 'pending',
      attempts,
      last_status_code: answer.statusCode,
      last_error: error,
      last_response_body: answer.body,
      next_attempt_at: new Date(now.getTime() + retryDelayMs(attempts, settings.retryBaseMs)).toISOString(),
      delivered_at: null,
      lease_until: now.toISOString(),
    };
  }

  /**
   * Queues the attempt's outcome to be written with others. The attempt's slot is free from
   * here on, not only once the outcome is stored: its lease keeps the delivery from being
   * claimed again until then, so the next claim need not wait for the write.
   */
  function finish(delivery: ClaimedDelivery, outcome: DeliveryOutcome): void {
    if (observer) {
      const delivered = outcome.status === 'delivered';
      const lagSeconds = delivered ? (clock.now().getTime() - Date.parse(delivery.created_at)) / 1000 : null;
      observer.attemptFinished(ATTEMPT_OUTCOMES[outcome.status], lagSeconds);
    }
    outcomes.push({ company_id: delivery.company_id, id: delivery.id, outcome });
    if (outcomes.length >= OUTCOME_BATCH) flush();
    else flushTimer ??= setTimeout(flush, BATCH_WINDOW_MS);
  }

  function flush(): void {
    if (flushTimer) clearTimeout(flushTimer);
    flushTimer = undefined;
    const at = clock.now().toISOString();
    // Deliveries that succeeded in one batch share their times, so that they are stored by one statement.
    const batch = outcomes.map((item) =>
      item.outcome.status === 'delivered' ? { ...item, outcome: { ...item.outcome, next_attempt_at: at, delivered_at: at, lease_until: at } } : item,
    );
    outcomes = [];
    if (batch.length === 0) return;
    // Batches are written one after the other; a failed write leaves the leases to end, and the attempts to be made again.
    flushing = flushing.then(() => deliveries.finish(owner, batch)).catch(report);
  }

  return {
    start(onError) {
      if (started) return;
      started = true;
      if (onError) report = onError;
      poll = setInterval(pump, settings.pollMs);
      poll.unref();
      pump();
    },
    wake: wakeSoon,
    async stop() {
      stopped = true;
      if (poll) clearInterval(poll);
      if (wakeTimer) clearTimeout(wakeTimer);
      while (inFlight.size > 0) await Promise.allSettled([...inFlight]);
      flush();
      await flushing;
      sender.close();
    },
  };
}
