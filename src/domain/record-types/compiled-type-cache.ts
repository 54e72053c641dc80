import type { CompiledRecordType } from './compiled-type.js';

interface Entry {
  readonly compiled: CompiledRecordType;
  /** The cache's clock when the entry was last moved to the young end. */
  movedAt: number;
}

/**
 * Compiled record types by (company, type, version). The version always comes from the
 * database, so a replacement made by any replica is seen by the next request everywhere;
 * a stale entry is simply never asked for again and ages out.
 *
 * Least recently used first out, in the Map's insertion order. A hit moves its entry to the
 * young end only once it has aged past half the cache: moving it on every hit (a delete and a
 * set) showed in a record get's profile, and an entry moved within the last
 * `maxEntries / 2` insertions has fewer entries after it than an eviction needs, so it is never
 * the one evicted.
 */
export class CompiledTypeCache {
  private readonly entries = new Map<string, Entry>();
  private clock = 0;

  constructor(private readonly maxEntries = 2000) {}

  get(companyId: string, typeId: string, version: number): CompiledRecordType | undefined {
    const key = cacheKey(companyId, typeId, version);
    const hit = this.entries.get(key);
    if (hit && this.clock - hit.movedAt > this.maxEntries / 2) {
      this.entries.delete(key);
      hit.movedAt = ++this.clock;
      this.entries.set(key, hit);
    }
    return hit?.compiled;
  }

  set(companyId: string, compiled: CompiledRecordType): void {
    const key = cacheKey(companyId, compiled.type.id, compiled.type.version);
    this.entries.delete(key);
    this.entries.set(key, { compiled, movedAt: ++this.clock });
    while (this.entries.size > this.maxEntries) {
      const oldest = this.entries.keys().next().value;
      if (oldest === undefined) break;
      this.entries.delete(oldest);
    }
  }

  get size(): number {
    return this.entries.size;
  }
}

const cacheKey = (companyId: string, typeId: string, version: number): string => `${companyId}\u0000${typeId}\u0000${version}`;
