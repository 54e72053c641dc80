import type { PageCacheSettings } from '../config/page-cache.js';
import type { DataVersions } from '../domain/data-versions.port.js';
import { READ_CHUNK_EVENTS } from '../domain/events/events-service.js';
import type { Database } from '../storage/database.js';
import type { ReadRouting } from '../storage/read-routing.js';
import { openFastListChunks } from './event-chunks.js';
import { createFastEventPageReads } from './event-page-reads.js';
import type { FastPath } from './fast-path.js';
import { createPageCache, eventsListBytes } from './page-cache.js';

export interface FastPathDeps {
  readonly database: Database;
  /** Where list reads go (read-routing.ts), as the plain repositories are given. */
  readonly reads: ReadRouting;
  readonly dataVersions: DataVersions;
  readonly pageCache: PageCacheSettings;
}

/**
 * The fast path of the list reads: recent pages kept by company and data version (page-cache.ts),
 * and an events page read with its data version in one statement where it can be
 * (event-page-reads.ts), so a request with nothing kept and no If-None-Match costs one read;
 * large pages read in chunks through the same compiled statements (event-chunks.ts), each chunk
 * joined into one buffer (page-cache.ts; on PostgreSQL as a binary COPY arrives, copy-binary-bodies.ts).
 */
export function createFastPath({ database, reads, dataVersions, pageCache }: FastPathDeps): FastPath {
  const cache = createPageCache(pageCache);
  const eventPages = createFastEventPageReads(database, reads);
  const keyOf = (companyId: string, version: number, etagAt: (version: number) => string) => ({ companyId, version, etag: etagAt(version) });

  return {
    async eventsPage(request, query) {
      const { companyId } = request;
      // Nothing kept could answer and no tag to compare: the page and its version in one read.
      if (request.headers['if-none-match'] === undefined && !cache.mayServe(request, companyId)) {
        const { events, version } = await eventPages.list(companyId, query);
        const key = keyOf(companyId, version, request.etagAt);
        return { etag: key.etag, body: cache.keep(key, eventsListBytes(events)) };
      }
      // Read before the page: a write committed meanwhile can only make the tag older than the answer.
      const key = keyOf(companyId, await dataVersions.current(companyId), request.etagAt);
      if (request.notModified(key.etag)) return { etag: key.etag, body: null };
      const body = await cache.serve(request, key, async () => eventsListBytes((await eventPages.list(companyId, query)).events));
      return { etag: key.etag, body };
    },

    eventChunks(companyId, query) {
      return reads.read(companyId, (target) => openFastListChunks(target, companyId, query, READ_CHUNK_EVENTS));
    },

    keptPage(request, version, build) {
      return cache.serve(request, keyOf(request.companyId, version, request.etagAt), build);
    },
  };
}
