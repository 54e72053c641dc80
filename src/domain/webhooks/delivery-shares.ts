import type { DueDelivery } from './deliveries-repository.port.js';

/**
 * How one process shares its delivery slots. A webhook may hold a quarter of them, so that one
 * slow receiver cannot stall the company's others. A company may hold an equal share with one
 * company more than those delivering (half the slots while it is alone, a third beside one
 * other, at least one): slots hung on one company's receivers until their timeout are never
 * all of them, and a company not yet delivering finds one free. Each claim skips the companies
 * and webhooks at their share in the query itself, so a backlog of theirs that sorts first
 * cannot hide a later company's deliveries from it.
 */
export interface DeliveryShares {
  /** Whom the next claim skips: the webhooks and companies at their share. */
  full(): { webhooks: string[]; companies: string[] };
  /** The due deliveries (oldest first) that fit the shares, given what is already in flight. */
  choose(due: readonly DueDelivery[]): DueDelivery[];
  /** An attempt of the delivery began. */
  taken(delivery: DueDelivery): void;
  /** Its attempt ended. */
  released(delivery: DueDelivery): void;
}

export function createDeliveryShares(slots: number): DeliveryShares {
  const perWebhook = Math.max(1, Math.floor(slots / 4));
  const webhooks = new Map<string, number>();
  const companies = new Map<string, number>();

  /** Slots a company may hold while `delivering` companies (itself included) have attempts in flight. */
  const companyShare = (delivering: number): number => Math.max(1, Math.floor(slots / (delivering + 1)));
  const companyFull = (counts: ReadonlyMap<string, number>, companyId: string): boolean => {
    const held = counts.get(companyId) ?? 0;
    return held >= companyShare(counts.size + (held === 0 ? 1 : 0));
  };

  return {
    full() {
      return {
        webhooks: [...webhooks].filter(([, held]) => held >= perWebhook).map(([id]) => id),
        companies: [...companies.keys()].filter((id) => companyFull(companies, id)),
      };
    },

    choose(due) {
      const webhookCounts = new Map(webhooks);
      const companyCounts = new Map(companies);
      return due.filter((delivery) => {
        const webhookHeld = webhookCounts.get(delivery.webhook_id) ?? 0;
        if (webhookHeld >= perWebhook || companyFull(companyCounts, delivery.company_id)) return false;
        webhookCounts.set(delivery.webhook_id, webhookHeld + 1);
        companyCounts.set(delivery.company_id, (companyCounts.get(delivery.company_id) ?? 0) + 1);
        return true;
      });
    },

    taken(delivery) {
      add(webhooks, delivery.webhook_id, 1);
      add(companies, delivery.company_id, 1);
    },

    released(delivery) {
      add(webhooks, delivery.webhook_id, -1);
      add(companies, delivery.company_id, -1);
    },
  };
}

function add(counts: Map<string, number>, key: string, change: number): void {
  const count = (counts.get(key) ?? 0) + change;
  if (count > 0) counts.set(key, count);
  else counts.delete(key);
}
