import type { PageCacheSettings } from '../config/page-cache.js';
import type { EventJson } from '../domain/events/event.js';

/** A request's headers as far as the cache reads them (a FastifyRequest is one). */
export interface CacheableRequest {
  readonly headers: { readonly 'cache-control'?: string | undefined };
}

/** What a kept page is found by. */
export interface PageKey {
  readonly companyId: string;
  /** The company's data version, read before the page's rows. */
  readonly version: number;
  /** The answer's weak ETag: a hash of the route, company, identity kind, data version and normalised query. */
  readonly etag: string;
}

export interface PageCache {
  /**
   * The body of the page `key` names: the kept one when there is one, else the one `build`
   * makes, kept when it is a string or bytes no larger than the page bound. A request saying
   * `Cache-Control: no-cache` is always built afresh.
   */
  serve<Body>(request: CacheableRequest, key: PageKey, build: () => Promise<Body>): Promise<Body | Buffer>;
  /**
   * Whether `serve` could answer this request from a kept page of the company: false when the
   * request says `no-cache`, the cache is off, or nothing of the company is kept. When false, a
   * page may be read with its data version in one go (no version read first) and then `keep`.
   */
  mayServe(request: CacheableRequest, companyId: string): boolean;
  /**
   * Keeps a body built for `key` (a string or bytes no larger than the page bound), as `serve` keeps what
   * it builds, and gives back what to send: the kept bytes, so the text is encoded once, or the
   * body itself when it was not kept.
   */
  keep<Body>(key: PageKey, body: Body): Body | Buffer;
}

interface Company {
  version: number;
  readonly keys: Set<string>;
}

const NO_CACHE = /(?:^|,)\s*no-cache\s*(?:,|$)/i;

/**
 * Recent list answers of this process, least recently used dropped first past `totalBytes`.
 *
 * Why a page can be kept under the version read before its rows: the version counts a
 * company's commits, so a page kept under version v was read after every write v counts (and
 * perhaps after one committed since: newer, never older). A write acknowledged to a client has
 * already moved the version past v, so a request sent after it reads the newer version and looks
 * for another key: a kept page never hides a write from a request made after it. Nothing here
 * is invalidated in process: another replica's write is seen through the version alone.
 */
export function createPageCache(settings: PageCacheSettings): PageCache {
  const largest = Math.min(settings.maxPageBytes, settings.totalBytes);
  const pages = new Map<string, { readonly companyId: string; readonly body: Buffer }>();
  const companies = new Map<string, Company>();
  let keptBytes = 0;

  const drop = (mapKey: string) => {
    const page = pages.get(mapKey);
    if (!page) return;
    pages.delete(mapKey);
    keptBytes -= page.body.length;
    const company = companies.get(page.companyId)!;
    company.keys.delete(mapKey);
    if (company.keys.size === 0) companies.delete(page.companyId);
  };

  /** The company's kept pages, once those of older versions are gone; undefined for a request older than them. */
  const current = (companyId: string, version: number): Company | undefined => {
    const company = companies.get(companyId);
    if (!company) return undefined;
    if (version < company.version) return undefined;
    if (version > company.version) {
      for (const mapKey of [...company.keys]) drop(mapKey);
      return undefined;
    }
    return company;
  };

  const lookup = (key: PageKey, mapKey: string): Buffer | undefined => {
    if (!current(key.companyId, key.version)) return undefined;
    const page = pages.get(mapKey);
    if (!page) return undefined;
    pages.delete(mapKey);
    pages.set(mapKey, page);
    return page.body;
  };

  /** The bytes kept for `page`, or undefined when it is not kept. */
  const keep = (key: PageKey, mapKey: string, page: string | Buffer): Buffer | undefined => {
    if (page.length > largest) return undefined;
    const known = companies.get(key.companyId);
    // Built by a request that read its version before another kept a newer page: only requests already under way could use it.
    if (known && key.version < known.version) return undefined;
    const body = typeof page === 'string' ? Buffer.from(page) : page;
    if (body.length > largest) return undefined;
    drop(mapKey);
    const company = current(key.companyId, key.version) ?? { version: key.version, keys: new Set<string>() };
    companies.set(key.companyId, company);
    pages.set(mapKey, { companyId: key.companyId, body });
    company.keys.add(mapKey);
    keptBytes += body.length;
    for (const oldest of pages.keys()) {
      if (keptBytes <= settings.totalBytes) break;
      drop(oldest);
    }
    return body;
  };

  /** A body sent whole (a stream is not kept). */
  const keepable = (body: unknown): body is string | Buffer => typeof body === 'string' || Buffer.isBuffer(body);
  const mapKeyOf = (key: PageKey) => `${key.companyId}\n${key.etag}`;
  const saysNoCache = (request: CacheableRequest) => {
    const cacheControl = request.headers['cache-control'];
    return cacheControl !== undefined && NO_CACHE.test(cacheControl);
  };

  return {
    async serve(request, key, build) {
      if (settings.totalBytes === 0) return build();
      const mapKey = mapKeyOf(key);
      if (!saysNoCache(request)) {
        const kept = lookup(key, mapKey);
        if (kept) return kept;
      }
      const body = await build();
      return (keepable(body) && keep(key, mapKey, body)) || body;
    },
    mayServe(request, companyId) {
      return settings.totalBytes > 0 && companies.has(companyId) && !saysNoCache(request);
    },
    keep(key, body) {
      return (settings.totalBytes > 0 && keepable(body) && keep(key, mapKeyOf(key), body)) || body;
    },
  };
}

const COMMA = 0x2c;

/**
 * The EventsListResponse body of a page, byte for byte what the plain path's eventsListBody
 * (http/routes/events/serialize-events.ts) sends, written straight into one buffer: joining
 * the strings first and encoding the result costs more (V8 copies the whole joined string once
 * more before it is encoded).
 */
export function eventsListBytes(events: readonly EventJson[]): Buffer {
  return joinedBytes(`{"count":${events.length},"results":[`, events, ']}');
}

/** A chunk of a large page's body (its head, then its events joined by commas), as eventsListBytes writes a page. */
export function listChunkBytes(head: string, events: readonly EventJson[]): Buffer {
  return joinedBytes(head, events, '');
}

function joinedBytes(head: string, events: readonly EventJson[], tail: string): Buffer {
  let size = Buffer.byteLength(head) + Buffer.byteLength(tail) + Math.max(events.length - 1, 0);
  for (let i = 0; i < events.length; i++) size += Buffer.byteLength(events[i]!);
  // Not from Node's shared pool: a page the page cache keeps must not hold on to a pool slab.
  const bytes = Buffer.allocUnsafeSlow(size);
  let at = bytes.write(head, 0);
  for (let i = 0; i < events.length; i++) {
    if (i > 0) bytes[at++] = COMMA;
    at += bytes.write(events[i]!, at);
  }
  bytes.write(tail, at);
  return bytes;
}
