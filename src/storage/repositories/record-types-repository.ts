import { sql, type Kysely } from 'kysely';
import type { RecordTypesRepository } from '../../domain/record-types/record-types-repository.port.js';
import type { StoredRecordType, TypeDefinitionBody } from '../../domain/record-types/stored-record-type.js';
import type { DialectName } from '../database.js';
import type { DB } from '../schema.js';
import type { RecordTypesTable } from '../tables/records.js';
import type { TransactionScope } from '../../domain/unit-of-work.js';
import { executorOf } from '../unit-of-work.js';
import { precompiledStatement } from '../precompiled-query.js';

const COLUMNS = ['id', 'name', 'definition', 'version', 'created_at', 'updated_at'] as const;

type Row = Pick<RecordTypesTable, (typeof COLUMNS)[number]>;

/** The one place a type's row is read as the domain's type: its definition is JSON text. */
const toStored = (row: Row): StoredRecordType => ({
  id: row.id,
  name: row.name,
  definition: JSON.parse(row.definition) as TypeDefinitionBody,
  version: Number(row.version),
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});

export function createRecordTypesRepository(db: Kysely<DB>): RecordTypesRepository {
  const liveOn = (executor: Kysely<DB>, companyId: string) =>
    executor.selectFrom('record_types').where('company_id', '=', companyId).where('deleted_at', 'is', null);
  const live = (companyId: string, scope?: TransactionScope) => liveOn(executorOf(db, scope), companyId);
  // Asked by every record create, whose type is then taken from the cache of compiled types.
  const versionOfOne = precompiledStatement(db, 2, (db, companyId, typeId) => liveOn(db, companyId!).select(['id', 'version']).where('id', '=', typeId!));

  return {
    async find(companyId, typeId) {
      const row = await live(companyId).select(COLUMNS).where('id', '=', typeId).executeTakeFirst();
      return row ? toStored(row) : undefined;
    },

    async versions(companyId, typeIds, scope) {
      if (typeIds && typeIds.length === 0) return [];
      if (typeIds?.length === 1) {
        const { rows } = await versionOfOne(executorOf(db, scope), [companyId, typeIds[0]]);
        return rows.map((row) => ({ id: row.id, version: Number(row.version) }));
      }
      let query = live(companyId, scope).select(['id', 'version']);
      if (typeIds) query = query.where('id', 'in', typeIds);
      const rows = await query.execute();
      return rows.map((row) => ({ id: row.id, version: Number(row.version) }));
    },

    async findMany(companyId, typeIds, scope) {
      if (typeIds.length === 0) return [];
      const rows = await live(companyId, scope).select(COLUMNS).where('id', 'in', typeIds).execute();
      return rows.map(toStored);
    },

    async list(companyId) {
      const rows = await live(companyId).select(COLUMNS).orderBy('id').execute();
      return rows.map(toStored);
    },

    async put(companyId, typeId, type, scope) {
      const { name, at } = type;
      const definition = JSON.stringify(type.definition);
      const row = await executorOf(db, scope)
        .insertInto('record_types')
        .values({ company_id: companyId, id: typeId, name, definition, version: 1, created_at: at, updated_at: at, deleted_at: null })
        .onConflict((oc) =>
          oc.columns(['company_id', 'id']).doUpdateSet({
            name,
            definition,
            version: sql<number>`record_types.version + 1`,
            // A type defined again after a delete starts a new life.
            created_at: sql<string>`case when record_types.deleted_at is null then record_types.created_at else ${at} end`,
            updated_at: at,
            deleted_at: null,
          }),
        )
        .returning(COLUMNS)
        .executeTakeFirstOrThrow();
      return toStored(row);
    },

    async remove(companyId, typeId, at, scope) {
      const result = await executorOf(db, scope)
        .updateTable('record_types')
        .set({ deleted_at: at, updated_at: at })
        .where('company_id', '=', companyId)
        .where('id', '=', typeId)
        .where('deleted_at', 'is', null)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },
  };
}

/**
 * A company's type row as a transaction sees it (liveTypeOf keeps it when it is live). On
 * PostgreSQL the row (deleted or not) stays share-locked until the transaction ends, so no
 * replacement or deletion of the type commits in between; an SQLite transaction holds the
 * database's one write lock already.
 */
export function typeInTransactionQuery(db: Kysely<DB>, dialect: DialectName, companyId: string, typeId: string) {
  const query = db
    .selectFrom('record_types')
    .select([...COLUMNS, 'deleted_at'])
    .where('company_id', '=', companyId)
    .where('id', '=', typeId);
  return dialect === 'postgres' ? query.forShare() : query;
}

/** The stored type of a row read by typeInTransactionQuery; undefined when there is none or it was deleted. */
export function liveTypeOf(row: (Row & { deleted_at: string | null }) | undefined): StoredRecordType | undefined {
  return row && row.deleted_at === null ? toStored(row) : undefined;
}
