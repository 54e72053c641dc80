import type { DueDelivery } from './deliveries-repository.port.js';

/**
 * How one process shares its delivery slots, by one rule at two levels: a company may hold an
 * equal share of the slots with one company more than those delivering (half the slots while
 * it is alone, a third beside one other, at least one), and a webhook an equal share of its
 * company's with one webhook more than the company's delivering, and never over a quarter of
 * the slots. Slots hung on receivers until their timeout are thus never all of them: a company
 * not yet delivering finds one free, and so does a company's webhook that is not. Each claim
 * skips the companies and webhooks at their share in the query itself, so a backlog of theirs
 * that sorts first cannot hide a later company's deliveries from it.
 */
export interface DeliveryShares {
  /** Whom the next claim skips: the webhooks and companies at their share. */
  full(): { webhooks: string[]; companies: string[] };
  /**
   * Up to `room` of the due deliveries (read oldest first) that fit the shares, in turn: the
   * company with the fewest attempts in flight first, within it the webhook with the fewest, then
   * the one served least recently, then the oldest delivery.
   */
  choose(due: readonly DueDelivery[], room: number): DueDelivery[];
  /** An attempt of the delivery began. */
  taken(delivery: DueDelivery): void;
  /** Its attempt ended. */
  released(delivery: DueDelivery): void;
}

/** Attempts in flight, by company and by webhook within it. */
type Holdings = Map<string, { held: number; webhooks: Map<string, number> }>;

export function createDeliveryShares(slots: number): DeliveryShares {
  const perWebhook = Math.max(1, Math.floor(slots / 4));
  const holdings: Holdings = new Map();
  // When each webhook last began an attempt (a count, not a time): ties go to the one served least recently.
  const lastServed = new Map<string, number>();
  let served = 0;

  /** What `total` gives each of `holders` (the one asking included) when one more is to come. */
  const shareOf = (total: number, holders: number): number => Math.max(1, Math.floor(total / (holders + 1)));
  const companyShare = (companies: Holdings, companyId: string): number => shareOf(slots, companies.size + (companies.has(companyId) ? 0 : 1));

  function fits(companies: Holdings, delivery: DueDelivery): boolean {
    const company = companies.get(delivery.company_id);
    const share = companyShare(companies, delivery.company_id);
    if (!company) return true;
    if (company.held >= share) return false;
    const webhookHeld = company.webhooks.get(delivery.webhook_id) ?? 0;
    const webhookShare = Math.min(perWebhook, shareOf(share, company.webhooks.size + (webhookHeld === 0 ? 1 : 0)));
    return webhookHeld < webhookShare;
  }

  return {
    full() {
      const webhooks: string[] = [];
      const companies: string[] = [];
      for (const [companyId, company] of holdings) {
        const share = companyShare(holdings, companyId);
        if (company.held >= share) companies.push(companyId);
        else {
          const webhookShare = Math.min(perWebhook, shareOf(share, company.webhooks.size));
          for (const [webhookId, held] of company.webhooks) if (held >= webhookShare) webhooks.push(webhookId);
        }
      }
      return { webhooks, companies };
    },

    choose(due, room) {
      const trial: Holdings = new Map([...holdings].map(([id, company]) => [id, { held: company.held, webhooks: new Map(company.webhooks) }]));
      const servedNow = new Map<string, number>();
      const left = [...due];
      const chosen: DueDelivery[] = [];
      while (chosen.length < room) {
        let best = -1;
        let bestRank: number[] = [];
        for (let i = 0; i < left.length; i++) {
          const delivery = left[i]!;
          if (!fits(trial, delivery)) continue;
          const company = trial.get(delivery.company_id);
          const lastTurn = servedNow.get(delivery.webhook_id) ?? lastServed.get(delivery.webhook_id) ?? -1;
          const rank = [company?.held ?? 0, company?.webhooks.get(delivery.webhook_id) ?? 0, lastTurn];
          if (best === -1 || comesBefore(rank, bestRank)) [best, bestRank] = [i, rank];
        }
        if (best === -1) break;
        const [delivery] = left.splice(best, 1) as [DueDelivery];
        chosen.push(delivery);
        add(trial, delivery, 1);
        servedNow.set(delivery.webhook_id, served + chosen.length);
      }
      return chosen;
    },

    taken(delivery) {
      add(holdings, delivery, 1);
      if (lastServed.size >= 100_000) lastServed.clear();
      lastServed.set(delivery.webhook_id, ++served);
    },
    released: (delivery) => add(holdings, delivery, -1),
  };
}

function add(holdings: Holdings, { company_id, webhook_id }: DueDelivery, change: number): void {
  const company = holdings.get(company_id) ?? { held: 0, webhooks: new Map<string, number>() };
  company.held += change;
  const held = (company.webhooks.get(webhook_id) ?? 0) + change;
  if (held > 0) company.webhooks.set(webhook_id, held);
  else company.webhooks.delete(webhook_id);
  if (company.held > 0) holdings.set(company_id, company);
  else holdings.delete(company_id);
}

/** Ranks compared item by item; the lower comes first, and an equal one keeps the older delivery. */
function comesBefore(rank: readonly number[], other: readonly number[]): boolean {
  for (let i = 0; i < rank.length; i++) if (rank[i] !== other[i]) return rank[i]! < other[i]!;
  return false;
}
