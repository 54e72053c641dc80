import { sql, type ExpressionBuilder, type Kysely, type SelectQueryBuilder } from 'kysely';
import type { RecordModel } from '../../domain/records/record-model.js';
import type { RecordListFilter, RecordPageQuery, RecordsRepository } from '../../domain/records/records-repository.port.js';
import type { Database } from '../database.js';
import { primaryReads, type ReadRouting } from '../read-routing.js';
import type { DB } from '../schema.js';
import { precompiled, precompiledStatement } from '../precompiled-query.js';
import { executorOf } from '../unit-of-work.js';
import { changeToPersistence, recordToDomain, recordToPersistence, referencesToPersistence } from './record-mapper.js';
import { liveTypeOf, typeInTransactionQuery } from './record-types-repository.js';
import { RECORD_COLUMNS } from '../tables/records.js';
import { batchFreshReads } from '../../lib/fresh-read-batches.js';

const INSERT_BATCH = 400;
const ID_BATCH = 500;

/**
 * List pages (`page`, `exists`) are read where `reads` sends them: a standby that has caught up
 * with the company, or the primary. Single records are read on the primary: checking the
 * standby would itself take a primary round trip as costly as the read.
 */
export function createRecordsRepository(database: Database, reads: ReadRouting = primaryReads(database)): RecordsRepository {
  const { db } = database;
  // The statements of a record create and update, built once.
  const insertOne = precompiledStatement(
    db,
    1 + RECORD_COLUMNS.length,
    (db, companyId, id, recordType, typeId, uid, status, parentRecord, childRecords, instance, fields, linked, views, createdAt, updatedAt) =>
      db.insertInto('records').values({
        company_id: companyId!,
        id: id!,
        record_type: recordType!,
        type_id: typeId!,
        uid: uid!,
        status: status!,
        parent_record: parentRecord!,
        child_records: childRecords!,
        instance: instance!,
        fields: fields!,
        linked: linked!,
        views: views!,
        created_at: createdAt!,
        updated_at: updatedAt!,
      }),
  );
  // On PostgreSQL the row stays locked until the update commits: a concurrent update of it waits.
  const recordToUpdate = precompiledStatement(db, 2, (db, companyId, id) => {
    const select = db.selectFrom('records').selectAll().where('company_id', '=', companyId!).where('id', '=', id!);
    return database.dialect === 'postgres' ? select.forUpdate() : select;
  });
  const typeInTransaction = precompiledStatement(db, 2, (db, companyId, typeId) => typeInTransactionQuery(db, database.dialect, companyId!, typeId!));
  const updateRecord = precompiledStatement(db, 5, (db, status, fields, updatedAt, companyId, id) =>
    db.updateTable('records').set({ status: status!, fields: fields!, updated_at: updatedAt! }).where('company_id', '=', companyId!).where('id', '=', id!),
  );

  async function lockedRecord(trx: Kysely<DB>, companyId: string, id: string) {
    const row = (await recordToUpdate(trx, [companyId, id])).rows[0];
    return row && recordToDomain(row);
  }
  async function liveType(trx: Kysely<DB>, companyId: string, record: RecordModel) {
    return record.typeId === null ? undefined : liveTypeOf((await typeInTransaction(trx, [companyId, record.typeId])).rows[0]);
  }

  // biome-ignore lint/complexity/noBannedTypes: {} is Kysely's type for a query with nothing selected yet
  function filtered(db: Kysely<DB>, companyId: string, filter: RecordListFilter): SelectQueryBuilder<DB, 'records', {}> {
    let query = db.selectFrom('records').where('records.company_id', '=', companyId);
    if (filter.recordType !== undefined) query = query.where('records.record_type', '=', filter.recordType);
    if (filter.typeId !== undefined) query = query.where('records.type_id', '=', filter.typeId);
    const { time, view } = filter;
    if (time?.after !== undefined) query = query.where(`records.${time.column}`, '>', time.after);
    if (time?.before !== undefined) query = query.where(`records.${time.column}`, '<', time.before);
    if (view) query = query.where((eb) => inView(eb, view));
    return query;
  }

  /** Keeps the records after `after` and before `before` in the order (a descending order turns the comparisons round). */
  function bounded<O>(query: SelectQueryBuilder<DB, 'records', O>, { order, after, before }: Omit<RecordPageQuery, 'limit' | 'backwards'>) {
    const [later, earlier] = order.descending ? (['<', '>'] as const) : (['>', '<'] as const);
    let bounded = query;
    if (after) {
      const op = after.inclusive ? (`${later}=` as const) : later;
      bounded = bounded.where((eb) => eb(eb.refTuple(`records.${order.column}`, 'records.id'), op, eb.tuple(after.at, after.id)));
    }
    if (before) {
      const op = before.inclusive ? (`${earlier}=` as const) : earlier;
      bounded = bounded.where((eb) => eb(eb.refTuple(`records.${order.column}`, 'records.id'), op, eb.tuple(before.at, before.id)));
    }
    return bounded;
  }

  const withTypeVersion = (db: Kysely<DB>, companyId: string) =>
    db
      .selectFrom('records')
      .leftJoin('record_types', (join) =>
        join
          .onRef('record_types.company_id', '=', 'records.company_id')
          .onRef('record_types.id', '=', 'records.type_id')
          .on('record_types.deleted_at', 'is', null),
      )
      .selectAll('records')
      .select('record_types.version as type_version')
      .where('records.company_id', '=', companyId);

  const recordWithTypeVersion = precompiled(db, 2, (db, companyId, id) => withTypeVersion(db, companyId!).where('records.id', '=', id!));

  // PostgreSQL: the records of a company asked for together are read in one statement, by a
  // read begun after each request came (fresh-read-batches.ts), so a round trip serves a batch
  // of requests and no write acknowledged before a request is missed. SQLite reads in process,
  // where a statement per record costs less than gathering them.
  const recordsWithTypeVersion = precompiled(db, 2, (db, companyId, ids) => withTypeVersion(db, companyId!).where('records.id', '=', sql<string>`any(${ids})`));
  const findRow =
    database.dialect === 'postgres'
      ? batchFreshReads(async (companyId: string, ids: readonly string[]) => {
          const rows = await recordsWithTypeVersion(companyId, ids);
          const byId = new Map(rows.map((row) => [row.id, row]));
          return (id: string) => byId.get(id);
        })
      : async (companyId: string, id: string) => (await recordWithTypeVersion(companyId, id))[0];

  return {
    async findWithTypeVersion(companyId, id) {
      const row = await findRow(companyId, id);
      if (!row) return undefined;
      const typeVersion = row.type_version;
      return { record: recordToDomain(row), typeVersion: typeVersion === null ? undefined : Number(typeVersion) };
    },

    async find(companyId, id) {
      const row = await db.selectFrom('records').selectAll().where('company_id', '=', companyId).where('id', '=', id).executeTakeFirst();
      return row && recordToDomain(row);
    },

    async findKey(companyId, id, column) {
      const row = await db
        .selectFrom('records')
        .select([`${column} as at`, 'id'])
        .where('company_id', '=', companyId)
        .where('id', '=', id)
        .executeTakeFirst();
      return row ? { at: row.at, id: row.id } : undefined;
    },

    page(companyId, filter, query) {
      const direction = query.order.descending !== Boolean(query.backwards) ? 'desc' : 'asc';
      return reads.read(companyId, async ({ db }) => {
        const rows = await bounded(filtered(db, companyId, filter).selectAll('records'), query)
          .orderBy(`records.${query.order.column}`, direction)
          .orderBy('records.id', direction)
          .limit(query.limit)
          .execute();
        return rows.map(recordToDomain);
      });
    },

    exists(companyId, filter, bounds) {
      return reads.read(companyId, async ({ db }) => {
        const row = await bounded(filtered(db, companyId, filter).select('records.id'), bounds)
          .limit(1)
          .executeTakeFirst();
        return row !== undefined;
      });
    },

    count(companyId, filter) {
      return reads.read(companyId, async ({ db }) => {
        const row = await filtered(db, companyId, filter)
          .select((eb) => eb.fn.countAll<number | string>().as('count'))
          .executeTakeFirstOrThrow();
        return Number(row.count);
      });
    },

    async existingIds(companyId, ids, scope) {
      const found: string[] = [];
      for (let i = 0; i < ids.length; i += ID_BATCH) {
        const rows = await executorOf(db, scope)
          .selectFrom('records')
          .select('id')
          .where('company_id', '=', companyId)
          .where('id', 'in', ids.slice(i, i + ID_BATCH))
          .execute();
        found.push(...rows.map((row) => row.id));
      }
      return found;
    },

    async insertMany(companyId, records, scope, onProgress) {
      const trx = executorOf(db, scope);
      for (let i = 0; i < records.length; i += INSERT_BATCH) {
        const batch = records.slice(i, i + INSERT_BATCH);
        const rows = batch.map((record) => recordToPersistence(companyId, record));
        if (rows.length === 1) await insertOne(trx, [companyId, ...RECORD_COLUMNS.map((column) => rows[0]![column])]);
        else await trx.insertInto('records').values(rows).execute();
        const views = batch.flatMap((record) =>
          [...new Set(record.storedViews)].map((viewId) => ({ company_id: companyId, view_id: viewId, record_id: record.id })),
        );
        for (let j = 0; j < views.length; j += INSERT_BATCH) {
          await trx
            .insertInto('record_stored_views')
            .values(views.slice(j, j + INSERT_BATCH))
            .execute();
        }
        onProgress?.(i + batch.length);
      }
    },

    async update(companyId, id, change, scope) {
      const trx = executorOf(db, scope);
      const record = await lockedRecord(trx, companyId, id);
      if (!record) return undefined;
      const next = await change(record, await liveType(trx, companyId, record));
      const columns = changeToPersistence(next);
      await updateRecord(trx, [columns.status, columns.fields, columns.updated_at, companyId, id]);
      return { ...record, status: next.status, fields: next.fields, updatedAt: next.updatedAt };
    },

    async remove(companyId, id, check, scope) {
      const trx = executorOf(db, scope);
      const record = await lockedRecord(trx, companyId, id);
      if (!record) return undefined;
      check(record, await liveType(trx, companyId, record));
      await trx.deleteFrom('record_stored_views').where('company_id', '=', companyId).where('record_id', '=', id).execute();
      await trx.deleteFrom('records').where('company_id', '=', companyId).where('id', '=', id).execute();
      return record;
    },

    async mentioning(companyId, recordId, scope) {
      // A reference is an object holding the id as JSON text, so its quoted form is in the column's text.
      const pattern = `%${likeEscaped(JSON.stringify(recordId))}%`;
      const mentions = (column: 'records.parent_record' | 'records.child_records' | 'records.linked') =>
        sql<boolean>`${sql.ref(column)} like ${pattern} escape '!'`;
      let query = executorOf(db, scope)
        .selectFrom('records')
        .selectAll()
        .where('company_id', '=', companyId)
        .where((eb) => eb.or([eb('id', '=', recordId), mentions('records.parent_record'), mentions('records.child_records'), mentions('records.linked')]))
        .orderBy('id');
      // The record itself is locked with the others, all in ID order: two deletions of records
      // that name each other then wait for one another instead of deadlocking.
      if (database.dialect === 'postgres') query = query.forUpdate();
      return (await query.execute()).filter((row) => row.id !== recordId).map(recordToDomain);
    },

    async updateReferences(companyId, id, change, scope) {
      await executorOf(db, scope)
        .updateTable('records')
        .set(referencesToPersistence(change))
        .where('company_id', '=', companyId)
        .where('id', '=', id)
        .execute();
    },
  };
}

/** Text matched literally by LIKE ... ESCAPE '!'. */
function likeEscaped(text: string): string {
  return text.replace(/[!%_]/g, (character) => `!${character}`);
}

function inView(eb: ExpressionBuilder<DB, 'records'>, view: NonNullable<RecordListFilter['view']>) {
  const typed = view.typed.map(({ typeId, statuses }) =>
    statuses.length === 0 ? eb('records.type_id', '=', typeId) : eb.and([eb('records.type_id', '=', typeId), eb('records.status', 'in', statuses)]),
  );
  const untyped = eb.and([
    eb.or([
      eb('records.type_id', 'is', null),
      eb.not(
        eb.exists(
          eb
            .selectFrom('record_types')
            .select('record_types.id')
            .whereRef('record_types.company_id', '=', 'records.company_id')
            .whereRef('record_types.id', '=', 'records.type_id')
            .where('record_types.deleted_at', 'is', null),
        ),
      ),
    ]),
    eb.exists(
      eb
        .selectFrom('record_stored_views')
        .select('record_stored_views.record_id')
        .whereRef('record_stored_views.company_id', '=', 'records.company_id')
        .whereRef('record_stored_views.record_id', '=', 'records.id')
        .where('record_stored_views.view_id', '=', view.viewId),
    ),
  ]);
  return eb.or([...typed, untyped]);
}
