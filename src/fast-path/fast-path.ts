import type { EventListQuery } from '../domain/events/event-query.js';

/** A list request as the fast path sees it. */
export interface ListRequest {
  readonly companyId: string;
  /** If-None-Match and Cache-Control decide what may answer (a FastifyRequest's headers are such). */
  readonly headers: { readonly 'if-none-match'?: string | string[] | undefined; readonly 'cache-control'?: string | undefined };
  /** The answer's weak ETag at a data version of the company. */
  etagAt(version: number): string;
  /** Answers 304 when the client holds `etag` (If-None-Match), and says whether it did. */
  notModified(etag: string): boolean;
}

/** A chunk of a large page: its events' stored JSON joined by commas, as the bytes sent. */
export interface JoinedEvents {
  readonly events: number;
  readonly bytes: Buffer;
}

/** A large page read a chunk at a time from one committed state (as the events service's PageChunks), each chunk joined. */
export interface JoinedChunks {
  readonly count: number;
  /** The next chunk in order; null once all `count` events have been read. */
  next(): Promise<JoinedEvents | null>;
  /** Ends the read, after the last chunk or early; safe to call more than once. */
  close(): Promise<void>;
}

/** An answer of the fast path: its ETag, and its body unless `notModified` answered. */
export interface FastAnswer {
  readonly etag: string;
  readonly body: Buffer | null;
}

/**
 * The one seam between the plain read paths and what exists only for speed (docs/architecture.md,
 * "Request walk-through: GET /v1/events"). The plain path asks it first; a method that declines (undefined) leaves the answer to
 * the plain path, and whatever it answers is byte for byte what the plain path would have
 * answered. With WRS_FAST_PATH=false the app gets `noFastPath`, which declines everything.
 */
export interface FastPath {
  /** A page of GET /v1/events small enough to be read at once. */
  eventsPage(request: ListRequest, query: EventListQuery): Promise<FastAnswer | undefined>;
  /** A page of GET /v1/events too large to read at once, read a chunk at a time as the events service's `openList` reads it, each chunk joined. */
  eventChunks(companyId: string, query: EventListQuery): Promise<JoinedChunks> | undefined;
  /** The body of a list page the plain path builds, or the same bytes kept from an earlier build. */
  keptPage<Body>(request: ListRequest, version: number, build: () => Promise<Body>): Promise<Body | Buffer>;
}

export const noFastPath: FastPath = {
  eventsPage: async () => undefined,
  eventChunks: () => undefined,
  keptPage: (_request, _version, build) => build(),
};
