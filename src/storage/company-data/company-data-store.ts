import { sql, type Kysely } from 'kysely';
import type { CompanyDataReader, CompanyDataStore, ExportedRow, KindPosition } from '../../domain/company-export/company-data.port.js';
import type { StoredEvent } from '../../domain/events/event.js';
import type { Database } from '../database.js';
import { createEventWriter, rememberKeyValues } from '../repositories/event-writes.js';
import { executorOf } from '../unit-of-work.js';
import { EXPORT_KINDS, EXPORTED_TABLES, exportedTable } from '../table-registry.js';
import type { ExportedTable } from './exported-table.js';
import { exportedRow, rowProblem, storedRow } from './row-forms.js';

/** PostgreSQL takes at most 65,535 parameters in one statement. */
const MAX_PARAMETERS = 65_535;

/**
 * A company's data as the export reads and the import writes it, table by table (see
 * table-registry.ts). Reads page by each table's key (keyset pagination, never OFFSET) in one
 * snapshot; writes join the caller's transaction.
 */
export function createCompanyDataStore(database: Database): CompanyDataStore {
  const { dialect } = database;
  const db = database.db as unknown as Kysely<any>;
  const eventWriter = createEventWriter(dialect);

  return {
    kinds: EXPORT_KINDS,
    databaseKind: dialect,

    async openReader(companyId): Promise<CompanyDataReader> {
      const snapshot = await database.openSnapshot();
      return {
        async page(kind, after) {
          const spec = requireTable(kind);
          const order = spec.order?.[dialect] ?? spec.key;
          const rows = await snapshot.rows<ExportedRow>(pageQuery(db, spec, order, companyId, after).compile());
          const last = rows.at(-1);
          const next = rows.length === spec.pageRows && last ? order.map((column) => last[column]) : undefined;
          return { rows: rows.map((row) => exportedRow(spec, row)), next };
        },
        release: () => snapshot.release(),
      };
    },

    async tablesHolding(companyId, scope) {
      const executor = (scope ? executorOf(database.db, scope) : database.db) as unknown as Kysely<any>;
      const holding: string[] = [];
      for (const { table } of EXPORTED_TABLES) {
        const row = await executor.selectFrom(table).select(sql`1`.as('one')).where('company_id', '=', companyId).limit(1).executeTakeFirst();
        if (row) holding.push(table);
      }
      return holding;
    },

    async insert(companyId, kind, rows, scope) {
      if (rows.length === 0) return;
      const spec = requireTable(kind);
      const trx = executorOf(database.db, scope);
      if (spec.table === 'events') {
        const events = rows.map((row) => ({ company_id: companyId, ...storedRow(spec, row, dialect) }) as unknown as StoredEvent);
        const prepared = await eventWriter.prepare(companyId, events);
        await eventWriter.write(trx, prepared);
        await rememberKeyValues(trx, prepared, scope);
        return;
      }
      const columns = spec.columns.length + (spec.suppliedOnImport?.length ?? 0) + 1;
      const perStatement = Math.floor(MAX_PARAMETERS / columns);
      const values = rows.map((row) => ({ company_id: companyId, ...storedRow(spec, row, dialect) }));
      for (let start = 0; start < values.length; start += perStatement) {
        await (trx as unknown as Kysely<any>)
          .insertInto(spec.table)
          .values(values.slice(start, start + perStatement))
          .execute();
      }
    },

    rowProblem(kind, row) {
      const spec = exportedTable(kind);
      return spec ? rowProblem(spec, row) : `unknown kind '${kind}'`;
    },
  };
}

function requireTable(kind: string): ExportedTable {
  const spec = exportedTable(kind);
  if (!spec) throw new Error(`no exported table '${kind}'`);
  return spec;
}

/**
 * The rows after `after` in the table's order: `(k1, k2) > (v1, v2)`, which an index of the
 * table answers, and which compares text the same on both databases (binary collation).
 */
function pageQuery(db: Kysely<any>, spec: ExportedTable, order: readonly string[], companyId: string, after: KindPosition | undefined) {
  const columns = [...new Set([...spec.columns, ...order])];
  let query = db.selectFrom(spec.table).select(columns).where('company_id', '=', companyId);
  if (after) {
    const key = sql.join(order.map((column) => sql.ref(column)));
    query = query.where(sql<boolean>`(${key}) > (${sql.join(after.map((value) => sql.val(value)))})`);
  }
  for (const column of order) query = query.orderBy(column);
  return query.limit(spec.pageRows);
}
