import { AppError } from '../../errors/app-error.js';
import type { ChangesPage, EventsService } from './events-service.js';
import { comparePositions, type FeedPosition } from './feed-position.js';
import type { FeedSignal } from './feed-signal.port.js';

/** What a follower answers when handed a page: it can take more, must wait for `resume()`, or is gone. */
export type DeliveryAnswer = 'ready' | 'full' | 'closed';

export interface FollowOptions {
  readonly companyId: string;
  readonly type: string | null;
  /** Events after this position are delivered. */
  readonly after: FeedPosition;
  /** Takes the next page in feed order; the same page object goes to every follower at its position. */
  readonly deliver: (page: ChangesPage) => DeliveryAnswer;
  /**
   * Retention removed events after the follower's position that it had not been handed: it is
   * told (410 feed_cursor_expired) and followed no more, rather than skipping them.
   */
  readonly expired: (error: AppError) => void;
}

export interface Following {
  /** A follower that answered 'full' can take more again (its buffer drained). */
  resume(): void;
  stop(): void;
}

export interface FeedFollowers {
  follow(options: FollowOptions): Following;
  /** Followers of every company, for the heartbeat and shutdown. */
  readonly size: number;
  close(): void;
}

export interface FeedFollowersDeps {
  readonly events: Pick<EventsService, 'changes' | 'ensureFeedKept'>;
  readonly signal: FeedSignal;
  /** Events per read. */
  readonly pageSize: number;
  /** While committed events wait behind an older open transaction (PostgreSQL), read again after this long. */
  readonly heldBackRecheckMs: number;
  /** Every company with followers is read again this often, whatever the signal says (a lost notification). */
  readonly safetyRecheckMs: number;
  readonly onError: (error: unknown) => void;
}

interface Follower {
  readonly type: string | null;
  position: FeedPosition;
  waiting: boolean;
  readonly deliver: FollowOptions['deliver'];
  readonly expired: FollowOptions['expired'];
}

interface CompanyFollowers {
  readonly followers: Set<Follower>;
  reading: boolean;
  readAgain: boolean;
  recheck: NodeJS.Timeout | undefined;
}

/**
 * Live delivery of the change feed to many followers (the SSE stream clients). A company's
 * followers are read for together when the company's events change: followers at the same
 * position with the same type filter form one group, and each group costs one read, whose page
 * is handed to every member. A company is read by one loop at a time; a change signalled
 * meanwhile makes the loop run once more, so signals are coalesced, never lost. Nothing here
 * runs on the ingest's path: a signal only schedules a read.
 */
export function createFeedFollowers(deps: FeedFollowersDeps): FeedFollowers {
  const companies = new Map<string, CompanyFollowers>();
  let size = 0;
  let stopListening: (() => void) | undefined;
  let safety: NodeJS.Timeout | undefined;
  let closed = false;

  const wake = (companyId: string): void => {
    const company = companies.get(companyId);
    if (!company || closed) return;
    if (company.reading) {
      company.readAgain = true;
      return;
    }
    company.reading = true;
    setImmediate(() => void read(companyId, company));
  };

  const expiryOf = async (companyId: string, at: FeedPosition): Promise<AppError | undefined> => {
    try {
      await deps.events.ensureFeedKept(companyId, at);
      return undefined;
    } catch (error) {
      if (error instanceof AppError && error.code === 'feed_cursor_expired') return error;
      throw error;
    }
  };

  const read = async (companyId: string, company: CompanyFollowers): Promise<void> => {
    let heldBack = false;
    try {
      do {
        company.readAgain = false;
        for (const group of groupsOf(company.followers)) {
          const { position: at, type } = group[0]!;
          const page = await deps.events.changes(companyId, { after: at, limit: deps.pageSize, type });
          heldBack ||= page.heldBack;
          // After the read, as the changes route checks: a removal committed before it is seen.
          const expiry = await expiryOf(companyId, at);
          if (expiry !== undefined) {
            for (const follower of group) {
              if (!company.followers.has(follower) || comparePositions(follower.position, at) !== 0) continue;
              company.followers.delete(follower);
              follower.expired(expiry);
            }
            continue;
          }
          if (page.events.length === 0) continue;
          const more = page.events.length === deps.pageSize;
          if (more) company.readAgain = true;
          for (const follower of group) {
            // Stopped, or moved on by a read that started after this one, while this one ran.
            if (!company.followers.has(follower) || comparePositions(follower.position, at) !== 0) continue;
            follower.position = page.nextPosition;
            const answer = follower.deliver(page);
            if (answer === 'closed') company.followers.delete(follower);
            // A follower catching up waits for its buffer to drain; one at the live end takes
            // every new event, and the HTTP side drops it when its buffer grows past the bound.
            else if (answer === 'full' && more) follower.waiting = true;
          }
        }
      } while (company.readAgain && !closed);
    } catch (error) {
      deps.onError(error);
    } finally {
      company.reading = false;
    }
    if (heldBack && company.recheck === undefined && !closed && companies.get(companyId) === company) {
      company.recheck = setTimeout(() => {
        company.recheck = undefined;
        wake(companyId);
      }, deps.heldBackRecheckMs);
    }
  };

  const startListening = (): void => {
    stopListening = deps.signal.listen((companyId) => {
      if (companyId !== null) wake(companyId);
      else for (const id of companies.keys()) wake(id);
    });
    safety = setInterval(() => {
      for (const id of companies.keys()) wake(id);
    }, deps.safetyRecheckMs);
    safety.unref();
  };

  return {
    get size() {
      return size;
    },

    follow({ companyId, type, after, deliver, expired }) {
      if (stopListening === undefined) startListening();
      let company = companies.get(companyId);
      if (!company) {
        company = { followers: new Set(), reading: false, readAgain: false, recheck: undefined };
        companies.set(companyId, company);
      }
      const follower: Follower = { type, position: after, waiting: false, deliver, expired };
      company.followers.add(follower);
      size++;
      wake(companyId);
      let stopped = false;
      return {
        resume() {
          if (stopped || !follower.waiting) return;
          follower.waiting = false;
          wake(companyId);
        },
        stop() {
          if (stopped) return;
          stopped = true;
          size--;
          const current = companies.get(companyId);
          if (!current) return;
          current.followers.delete(follower);
          if (current.followers.size === 0) {
            clearTimeout(current.recheck);
            companies.delete(companyId);
          }
        },
      };
    },

    close() {
      closed = true;
      stopListening?.();
      clearInterval(safety);
      for (const company of companies.values()) clearTimeout(company.recheck);
      companies.clear();
    },
  };
}

/** Followers that can take events, grouped by where they are and what they follow. */
function groupsOf(followers: ReadonlySet<Follower>): Follower[][] {
  const groups = new Map<string, Follower[]>();
  for (const follower of followers) {
    if (follower.waiting) continue;
    const key = `${follower.position.xid}:${follower.position.seq}:${JSON.stringify(follower.type)}`;
    const group = groups.get(key);
    if (group) group.push(follower);
    else groups.set(key, [follower]);
  }
  return [...groups.values()];
}
