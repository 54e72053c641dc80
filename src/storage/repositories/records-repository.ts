import { sql, type ExpressionBuilder, type Kysely, type SelectQueryBuilder } from 'kysely';
import type { RecordListFilter, RecordPageQuery, RecordsRepository } from '../../domain/records/records-repository.port.js';
import type { StoredRecord } from '../../domain/records/stored-record.js';
import type { Database } from '../database.js';
import { primaryReads, type ReadRouting } from '../read-routing.js';
import type { DB } from '../schema.js';
import { precompiled, precompiledStatement } from '../precompiled-query.js';
import { executorOf } from '../unit-of-work.js';
import { liveTypeOf, typeInTransactionQuery } from './record-types-repository.js';
import { batchFreshReads } from '../../lib/fresh-read-batches.js';

const INSERT_BATCH = 400;
const ID_BATCH = 500;
/** A stored record's columns, in the order the single-row insert binds them. */
const RECORD_COLUMNS = [
  'id',
  'record_type',
  'type_id',
  'uid',
  'status',
  'parent_record',
  'child_records',
  'instance',
  'fields',
  'linked',
  'views',
  'created_at',
  'updated_at',
] as const satisfies readonly (keyof StoredRecord)[];

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

  function bounded<O>(query: SelectQueryBuilder<DB, 'records', O>, { after, before }: Omit<RecordPageQuery, 'limit'>) {
    let bounded = query;
    if (after) {
      bounded = bounded.where((eb) => eb(eb.refTuple('records.created_at', 'records.id'), after.inclusive ? '>=' : '>', eb.tuple(after.createdAt, after.id)));
    }
    if (before) {
      bounded = bounded.where((eb) =>
        eb(eb.refTuple('records.created_at', 'records.id'), before.inclusive ? '<=' : '<', eb.tuple(before.createdAt, before.id)),
      );
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
      return { record: storedRecordOf(row)!, typeVersion: typeVersion === null ? undefined : Number(typeVersion) };
    },

    async find(companyId, id) {
      return db.selectFrom('records').selectAll().where('company_id', '=', companyId).where('id', '=', id).executeTakeFirst().then(storedRecordOf);
    },

    async findKey(companyId, id) {
      const row = await db.selectFrom('records').select(['created_at', 'id']).where('company_id', '=', companyId).where('id', '=', id).executeTakeFirst();
      return row ? { createdAt: row.created_at, id: row.id } : undefined;
    },

    page(companyId, filter, query) {
      const direction = query.descending ? 'desc' : 'asc';
      return reads.read(companyId, async ({ db }) => {
        const rows = await bounded(filtered(db, companyId, filter).selectAll('records'), query)
          .orderBy('records.created_at', direction)
          .orderBy('records.id', direction)
          .limit(query.limit)
          .execute();
        return rows.map((row) => storedRecordOf(row)!);
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

    async insertMany(companyId, rows, scope, onProgress) {
      const trx = executorOf(db, scope);
      for (let i = 0; i < rows.length; i += INSERT_BATCH) {
        const batch = rows.slice(i, i + INSERT_BATCH);
        if (batch.length === 1) await insertOne(trx, [companyId, ...RECORD_COLUMNS.map((column) => batch[0]![column])]);
        else
          await trx
            .insertInto('records')
            .values(batch.map((row) => ({ ...row, company_id: companyId })))
            .execute();
        const views = batch.flatMap((row) =>
          [...new Set(JSON.parse(row.views) as string[])].map((viewId) => ({ company_id: companyId, view_id: viewId, record_id: row.id })),
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
      const row = storedRecordOf((await recordToUpdate(trx, [companyId, id])).rows[0]);
      if (!row) return undefined;
      const type = row.type_id === null ? undefined : liveTypeOf((await typeInTransaction(trx, [companyId, row.type_id])).rows[0]);
      const next = await change(row, type);
      await updateRecord(trx, [next.status, next.fields, next.updated_at, companyId, id]);
      return { ...row, ...next };
    },

    async remove(companyId, id, check, scope) {
      const trx = executorOf(db, scope);
      const row = storedRecordOf((await recordToUpdate(trx, [companyId, id])).rows[0]);
      if (!row) return undefined;
      const type = row.type_id === null ? undefined : liveTypeOf((await typeInTransaction(trx, [companyId, row.type_id])).rows[0]);
      check(row, type);
      await trx.deleteFrom('record_stored_views').where('company_id', '=', companyId).where('record_id', '=', id).execute();
      await trx.deleteFrom('records').where('company_id', '=', companyId).where('id', '=', id).execute();
      return row;
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
      return (await query.execute()).filter((row) => row.id !== recordId).map((row) => storedRecordOf(row)!);
    },

    async updateReferences(companyId, id, change, scope) {
      await executorOf(db, scope)
        .updateTable('records')
        .set({ parent_record: change.parent_record, child_records: change.child_records, linked: change.linked, updated_at: change.updated_at })
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

/**
 * The stored record of a row, without its company or any joined column, as one object of a
 * fixed shape: rest destructuring would copy the row key by key into an object of its own.
 */
function storedRecordOf(row: StoredRecord | undefined): StoredRecord | undefined {
  if (!row) return undefined;
  return {
    id: row.id,
    record_type: row.record_type,
    type_id: row.type_id,
    uid: row.uid,
    status: row.status,
    parent_record: row.parent_record,
    child_records: row.child_records,
    instance: row.instance,
    fields: row.fields,
    linked: row.linked,
    views: row.views,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}
