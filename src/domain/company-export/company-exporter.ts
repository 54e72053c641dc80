import { createHash } from 'node:crypto';
import type { Clock } from '../../lib/clock.js';
import type { CompanyDataStore, KindPosition } from './company-data.port.js';
import { EXPORT_FORMAT, EXPORT_FORMAT_VERSION, TRAILER_KIND, type ExportHeader, type ExportTrailer } from './export-format.js';

export interface CompanyExporterDeps {
  readonly store: CompanyDataStore;
  readonly clock: Clock;
  readonly serviceVersion: string;
}

export interface CompanyExporter {
  /**
   * The company's export, a page of lines at a time, read as the consumer asks for it (so the
   * memory it takes does not grow with the company). All from one snapshot of the database;
   * ending the iteration early releases it.
   */
  lines(companyId: string): AsyncGenerator<string>;
}

export function createCompanyExporter({ store, clock, serviceVersion }: CompanyExporterDeps): CompanyExporter {
  return {
    async *lines(companyId) {
      const reader = await store.openReader(companyId);
      try {
        const hash = createHash('sha256');
        const line = (value: unknown): string => {
          const text = `${JSON.stringify(value)}\n`;
          hash.update(text);
          return text;
        };
        const header: ExportHeader = {
          format: EXPORT_FORMAT,
          version: EXPORT_FORMAT_VERSION,
          company: companyId,
          service_version: serviceVersion,
          exported_at: clock.now().toISOString(),
          database: store.databaseKind,
        };
        yield line(header);
        const counts: Record<string, number> = {};
        for (const kind of store.kinds) {
          counts[kind] = 0;
          let after: KindPosition | undefined;
          do {
            const page = await reader.page(kind, after);
            let text = '';
            for (const data of page.rows) text += line({ kind, data });
            counts[kind] += page.rows.length;
            if (text) yield text;
            after = page.next;
          } while (after);
        }
        const trailer: ExportTrailer = { kind: TRAILER_KIND, counts, sha256: hash.digest('hex') };
        yield `${JSON.stringify(trailer)}\n`;
      } finally {
        await reader.release();
      }
    },
  };
}
