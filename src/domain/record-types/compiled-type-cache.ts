import type { CompiledRecordType } from './compiled-type.js';

/**
 * Compiled record types by (company, type, version). The version always comes from the
 * database, so a replacement made by any replica is seen by the next request everywhere;
 * a stale entry is simply never asked for again and ages out.
 */
export class CompiledTypeCache {
  private readonly entries = new Map<string, CompiledRecordType>();

  constructor(private readonly maxEntries = 2000) {}

  get(companyId: string, typeId: string, version: number): CompiledRecordType | undefined {
    const key = cacheKey(companyId, typeId, version);
    const hit = this.entries.get(key);
    if (hit) {
      // Re-insert so that Map order is least-recently-used first.
      this.entries.delete(key);
      this.entries.set(key, hit);
    }
    return hit;
  }

  set(companyId: string, compiled: CompiledRecordType): void {
    this.entries.set(cacheKey(companyId, compiled.type.id, compiled.type.version), compiled);
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

const cacheKey = (companyId: string, typeId: string, version: number): string =>
  `${companyId}\u0000${typeId}\u0000${version}`;
