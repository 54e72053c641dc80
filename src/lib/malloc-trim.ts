import { createRequire } from 'node:module';

/** Hands the memory glibc's allocator holds free back to the system; true when some was. */
export type TrimFreedMemory = () => boolean;

/**
 * glibc's `malloc_trim(0)`, where the process runs on glibc; undefined elsewhere (musl, macOS,
 * Windows), or where koffi has no build for the platform.
 *
 * What Node allocates outside V8's heap (Buffers, the database drivers' rows and statements,
 * SQLite's page caches, zlib's state) comes from glibc's malloc, which keeps freed chunks for the
 * next allocation and returns memory to the system only from the top of its heap. A burst of work
 * leaves tens of MB free between chunks still in use, counted in the RSS for as long as the
 * process runs. `malloc_trim` also releases the free pages between them. Node has no binding for
 * it, hence koffi, a foreign-function library, for this one call.
 */
export function loadMallocTrim(): TrimFreedMemory | undefined {
  if (process.platform !== 'linux') return undefined;
  try {
    // Required, not imported: imported while tracing's ESM loader hook is on, it made the span
    // batch leave before the shutdown (test/traces/traced-request.test.ts on PostgreSQL, 3 of 4 runs).
    const koffi = createRequire(import.meta.url)('koffi') as typeof import('koffi');
    const trim = koffi.load('libc.so.6').func('int malloc_trim(size_t pad)') as (pad: number) => number;
    return () => trim(0) === 1;
  } catch {
    return undefined;
  }
}
