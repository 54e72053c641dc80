import assert from 'node:assert/strict';
import { after, before, beforeEach, it } from 'node:test';
import pg from 'pg';
import type { RecordsRepository } from '../../src/domain/records/records-repository.port.js';
import type { UnitOfWork } from '../../src/domain/unit-of-work.js';
import { describeEachDatabase } from '../helpers/databases.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { expectStatus } from './fixtures.js';

/** Version 1: a text note and a review status. */
const NOTE_V1 = {
  name: 'Note',
  fields: [{ uid: 'f_note', field_name: 'Note', type: 'string', required: false }],
  statuses: ['new', 'in_review', 'done'],
  views: [],
};
/** Version 2, replacing it: the note is a number now, and there is no review any more. */
const NOTE_V2 = {
  name: 'Note',
  fields: [{ uid: 'f_note', field_name: 'Note', type: 'number', required: false }],
  statuses: ['new', 'done'],
  views: [],
};
/** Valid for version 1 only. */
const OLD_TYPE_PATCH = { f_note: 'call back on Monday', status: 'in_review' };

/**
 * PATCH /v1/records/{record} validates against the record type its own write transaction
 * reads. A replacement of the type committed after the request began but before its write is
 * seen (the old type's value is refused); one attempted while the write's transaction is open
 * waits for it to commit. The seams: a unit of work wrapped to run a step before the write's
 * transaction, and a records repository wrapped to run one inside it.
 */
describeEachDatabase('PATCH and a record type replaced meanwhile', (kind) => {
  let t: TestApp;
  /** Runs just before the next transaction (the PATCH's) begins. */
  let beforeWrite: (() => Promise<void>) | undefined;
  /** Runs inside the update's transaction, after the record and its type were read. */
  let duringWrite: (() => Promise<void>) | undefined;
  let recordId: string;

  const wrap = (repository: RecordsRepository): RecordsRepository => ({
    ...repository,
    async update(companyId, id, change, scope) {
      return repository.update(
        companyId,
        id,
        async (row, type) => {
          await duringWrite?.();
          return change(row, type);
        },
        scope,
      );
    },
  });

  const wrapUnitOfWork = (unitOfWork: UnitOfWork): UnitOfWork => ({
    afterCommit: (scope, callback) => unitOfWork.afterCommit(scope, callback),
    async run(work) {
      await beforeWrite?.();
      return unitOfWork.run(work);
    },
  });

  before(async () => {
    t = await createTestApp(kind, { context: { wrapRecordsRepository: wrap, wrapUnitOfWork } });
  });
  after(() => t.close());

  beforeEach(async () => {
    beforeWrite = undefined;
    duringWrite = undefined;
    expectStatus(await putType(NOTE_V1), 201);
    recordId = expectStatus(await t.as('acme', { method: 'POST', url: '/v1/records/note', payload: {} }), 201).id;
  });

  const putType = (definition: object) => t.admin({ method: 'PUT', url: '/admin/v1/companies/acme/record-types/note', payload: definition });
  const patch = (body: object) => t.as('acme', { method: 'PATCH', url: `/v1/records/${recordId}`, payload: body });
  const stored = async () => expectStatus(await t.as('acme', { method: 'GET', url: `/v1/records/${recordId}` }), 200);
  const deleteType = async () => {
    expectStatus(await t.admin({ method: 'DELETE', url: '/admin/v1/companies/acme/record-types/note' }), 204);
  };

  it('refuses a value of the old type when the replacement committed before the write', async () => {
    beforeWrite = async () => {
      beforeWrite = undefined;
      expectStatus(await putType(NOTE_V2), 200);
    };
    const refused = expectStatus(await patch(OLD_TYPE_PATCH), 400, 'validation_failed');
    assert.deepEqual(refused.type_errors, [
      { uid: 'f_note', field_name: 'Note', expected: 'number' },
      { uid: 'status', field_name: 'status', expected: 'one of: new, done' },
    ]);
    const record = await stored();
    assert.equal(record.status, 'new');
    assert.equal(record.fields.Note, undefined);
    // The new type's value is taken.
    expectStatus(await patch({ f_note: 42, status: 'done' }), 200);
    assert.deepEqual({ note: (await stored()).fields.Note, status: (await stored()).status }, { note: 42, status: 'done' });
    await deleteType();
  });

  it('makes a replacement attempted during the write wait until the write committed', async () => {
    let replaced: Promise<Awaited<ReturnType<typeof putType>>> | undefined;
    let replacementDone = false;
    duringWrite = async () => {
      duringWrite = undefined;
      replaced = putType(NOTE_V2).finally(() => (replacementDone = true));
      await replacementWaiting(kind, t.database.url, () => replacementDone);
    };
    const response = await patch(OLD_TYPE_PATCH);
    // Written under version 1, which was the type until the write committed.
    const record = expectStatus(response, 200);
    assert.deepEqual({ note: record.fields.Note, status: record.status }, { note: 'call back on Monday', status: 'in_review' });
    const replacement = expectStatus(await replaced!, 200);
    assert.equal(replacement.fields[0].type, 'number');
    await deleteType();
  });
});

/**
 * Resolves once the replacement is blocked by the write's transaction: on PostgreSQL, a
 * session of the test database waits for a row lock; on SQLite, the replacement is still
 * pending a while after it started (the open transaction holds the one write lock).
 * Throws when the replacement finished first: nothing kept it from committing mid-write.
 */
async function replacementWaiting(kind: 'sqlite' | 'postgres', url: string, done: () => boolean): Promise<void> {
  if (kind === 'sqlite') {
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.equal(done(), false, 'the replacement committed while the PATCH transaction was open');
    return;
  }
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const deadline = Date.now() + 15_000;
    for (;;) {
      assert.equal(done(), false, 'the replacement committed while the PATCH transaction was open');
      const { rows } = await client.query(
        "select count(*)::int as waiting from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'",
      );
      if (rows[0].waiting > 0) return;
      assert.ok(Date.now() < deadline, 'the replacement never waited for the PATCH transaction');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  } finally {
    await client.end();
  }
}
