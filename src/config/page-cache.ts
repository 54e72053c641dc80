import { Type, type Static } from '@sinclair/typebox';

/** The repeated-page cache of GET /v1/events and GET /v1/records. Part of the one environment schema in `config.ts`. */
export const PageCacheEnv = {
  WRS_PAGE_CACHE_BYTES: Type.Integer({ default: 16 * 1_048_576, minimum: 0 }),
  WRS_PAGE_CACHE_MAX_PAGE_BYTES: Type.Integer({ default: 262_144, minimum: 1 }),
};

const PageCacheEnvSchema = Type.Object(PageCacheEnv);
type PageCacheEnvValues = Static<typeof PageCacheEnvSchema>;

export interface PageCacheSettings {
  /** Bytes of page bodies kept per process, in all; 0 = no cache. */
  readonly totalBytes: number;
  /** A body larger than this is never kept. */
  readonly maxPageBytes: number;
}

export function pageCacheSettings(env: PageCacheEnvValues): { readonly pageCache: PageCacheSettings } {
  return Object.freeze({
    pageCache: Object.freeze({ totalBytes: env.WRS_PAGE_CACHE_BYTES, maxPageBytes: env.WRS_PAGE_CACHE_MAX_PAGE_BYTES }),
  });
}
