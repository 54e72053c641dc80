import type { TransactionScope } from '../unit-of-work.js';
import type { NewDelivery, StoredDelivery } from './stored-webhook.js';
import type { DeliveryStatus } from './webhook.js';

/** A delivery claimed by a worker, with what it needs to make the attempt (not the last answer's body). */
export interface ClaimedDelivery extends Omit<StoredDelivery, 'last_response_body'> {
  company_id: string;
  /** Absent when the webhook was deleted meanwhile. */
  webhook?: { url: string; secret: string; enabled: boolean; previousSecret?: { sealed: string; expiresAt: string } };
}

/** What an attempt changes of its delivery. */
export type DeliveryOutcome = Pick<
  StoredDelivery,
  'status' | 'attempts' | 'last_status_code' | 'last_error' | 'last_response_body' | 'next_attempt_at' | 'delivered_at' | 'lease_until'
>;

/** A due delivery as a claim first reads it: what the shares are counted by. */
export interface DueDelivery {
  readonly company_id: string;
  readonly id: string;
  readonly webhook_id: string;
}

export interface ClaimRequest {
  /** Claim deliveries due at this time whose lease has ended. */
  readonly now: string;
  /** The lease taken: no other worker claims the delivery before it ends. */
  readonly leaseUntil: string;
  readonly owner: string;
  /** Deliveries to read at most. */
  readonly limit: number;
  /** Webhooks and companies whose deliveries are not read (they are at their share). */
  readonly skipWebhooks: readonly string[];
  readonly skipCompanies: readonly string[];
  /** Picks, from the due deliveries read (oldest first), those to lease. */
  readonly choose: (due: readonly DueDelivery[]) => DueDelivery[];
}

export interface Claim {
  readonly deliveries: ClaimedDelivery[];
  /** Due deliveries may be left: the claim was full, or some were skipped or passed over for a share. */
  readonly moreDue: boolean;
}

/** The outbox of webhook deliveries and their history. */
export interface DeliveriesRepository {
  /** Stores deliveries in the transaction of the change that causes them. */
  insertMany(companyId: string, deliveries: readonly NewDelivery[], scope: TransactionScope): Promise<void>;
  /** A webhook's deliveries, newest first. */
  listForWebhook(companyId: string, webhookId: string, limit: number): Promise<StoredDelivery[]>;
  /** The company's deliveries, newest first, optionally of one status. */
  listForCompany(companyId: string, status: DeliveryStatus | undefined, limit: number): Promise<StoredDelivery[]>;
  /** Makes the delivery pending and due at `at` (a new attempt, same id); false when the webhook has no such delivery. */
  redeliver(companyId: string, webhookId: string, deliveryId: string, at: string): Promise<StoredDelivery | undefined>;
  /** Leases due deliveries to one worker (skipping rows other workers hold locked), those `choose` picks. */
  claim(request: ClaimRequest): Promise<Claim>;
  /** Records attempts' outcomes in one transaction, each only if the worker still holds its lease. */
  finish(owner: string, outcomes: ReadonlyArray<{ company_id: string; id: string; outcome: DeliveryOutcome }>): Promise<void>;
}
