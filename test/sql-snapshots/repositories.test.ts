// The SQL each repository method runs, per dialect, checked in beside this file so that a query
// change shows in review. WRS_UPDATE_SQL_SNAPSHOTS=1 rewrites the files instead of comparing.
import type { EventListQuery } from '../../src/domain/events/event-query.js';
import { DEFAULT_RECORD_ORDER } from '../../src/domain/records/list-query.js';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { after, before, test } from 'node:test';
import { join } from 'node:path';
import type { TransactionScope } from '../../src/domain/unit-of-work.js';
import type { DueDelivery } from '../../src/domain/webhooks/deliveries-repository.port.js';
import { openDatabase, type Database } from '../../src/storage/database.js';
import { migrateToLatest } from '../../src/storage/migrator.js';
import { createBlobsRepository } from '../../src/storage/repositories/blobs-repository.js';
import { createCheckProviderCredentialsRepository } from '../../src/storage/repositories/check-provider-credentials-repository.js';
import { createCompanyDataRemover } from '../../src/storage/repositories/company-data-remover.js';
import { createErasuresRepository } from '../../src/storage/repositories/erasures-repository.js';
import { createOffboardingsRepository } from '../../src/storage/repositories/offboardings-repository.js';
import { createChecksRepository } from '../../src/storage/repositories/checks-repository.js';
import { createDataVersionsRepository } from '../../src/storage/repositories/data-versions-repository.js';
import { createEventsRepository } from '../../src/storage/repositories/events-repository.js';
import { createFastEventPageReads } from '../../src/fast-path/event-page-reads.js';
import { openFastListChunks } from '../../src/fast-path/event-chunks.js';
import { createIdempotencyRepository } from '../../src/storage/repositories/idempotency-repository.js';
import { createFilesRepository } from '../../src/storage/repositories/files-repository.js';
import { createRetentionRepository } from '../../src/storage/repositories/retention-repository.js';
import { createCompanyProfileRepository } from '../../src/storage/repositories/company-profile-repository.js';
import { createRecordTokensRepository } from '../../src/storage/repositories/record-tokens-repository.js';
import { createRecordTypesRepository } from '../../src/storage/repositories/record-types-repository.js';
import { createRecordsRepository } from '../../src/storage/repositories/records-repository.js';
import { createTemplatesRepository } from '../../src/storage/repositories/templates-repository.js';
import { createUnitOfWork } from '../../src/storage/unit-of-work.js';
import { createWebhookDeliveriesRepository } from '../../src/storage/repositories/webhook-deliveries-repository.js';
import { createWebhooksRepository } from '../../src/storage/repositories/webhooks-repository.js';
import { createTestDatabase, describeEachDatabase, type TestDatabase } from '../helpers/databases.js';
import { PROJECT_ROOT } from '../helpers/project-root.js';
import { statementsOf } from './sql-capture.js';

const UPDATE = process.env.WRS_UPDATE_SQL_SNAPSHOTS === '1';
const C = 'acme';
const T0 = '2026-01-01T00:00:00.000Z';
const T1 = '2026-01-02T00:00:00.000Z';
const CREATED = DEFAULT_RECORD_ORDER;
const FIRST_PAGE = { order: { field: 'created_at', direction: 'asc' }, limit: 2, offset: 0 } as const;
/** Pages both the events repository and the fast path read, each a snapshot step of its own. */
const LIST_QUERIES: readonly (readonly [string, EventListQuery])[] = [
  [
    'list: exact, comparison and time filters, ordered by flow_session desc',
    {
      filters: [
        { field: 'type', operator: 'eq', value: 'step_completed' },
        { field: 'flow_session', operator: 'gte', value: 1 },
        { field: 'created_at', operator: 'lt', value: T1 },
      ],
      order: { field: 'flow_session', direction: 'desc' },
      limit: 2,
      offset: 2,
    },
  ],
  ['list: contains, some stored values match', { ...FIRST_PAGE, filters: [{ field: 'flow_key', operator: 'contains', value: 'flow' }] }],
  ['list: contains, no stored value matches', { ...FIRST_PAGE, filters: [{ field: 'step_key', operator: 'contains', value: 'nothing' }] }],
];

/** Each step of a script: a name and one or more repository calls with fixed arguments. */
type Script = (step: (name: string, work: () => Promise<unknown>) => Promise<void>, database: Database) => Promise<void>;

const scripts: Record<string, Script> = {
  events: async (step, database) => {
    const events = createEventsRepository(database);
    const event = {
      id: 'e1',
      company_id: C,
      connection_id: null,
      connection_key: 'conn-a',
      created_at: T0,
      excluded: false,
      flow_id: null,
      flow_key: 'flow-a',
      flow_session: 1,
      like_value: null,
      seconds_active: null,
      seconds_running: null,
      selected_decision: null,
      step_key: 'step-a',
      text: null,
      type: 'step_completed',
      updated_at: T0,
      user_id: null,
      version_id: null,
      version_key: 'v-a',
      version_object: null,
    };
    const page = { order: { field: 'created_at', direction: 'asc' }, limit: 2, offset: 0 } as const;
    await step('unitOfWork.run + write, then afterBulkWrite', async () => {
      const written = await createUnitOfWork(database.db).run(async (scope) => events.write(await events.prepare(C, [event]), scope));
      await events.afterBulkWrite(written);
    });
    await step('hasEvents', () => events.hasEvents(C));
    await step('typeCounts', () => events.typeCounts(C));
    await step('list: no filter', () => events.list(C, { ...page, filters: [] }));
    for (const [name, query] of LIST_QUERIES) await step(name, () => events.list(C, query));
    await step('unitOfWork.run + feedPositionBefore + write (a replacement)', () =>
      createUnitOfWork(database.db).run(async (scope) => {
        await events.feedPositionBefore(C, scope);
        return events.write(await events.prepare(C, [{ ...event, text: 'replaced' }]), scope);
      }),
    );
    await step('changes: all types', () => events.changes(C, { xid: 0, seq: 0 }, 2, null));
    await step('changes: one type', () => events.changes(C, { xid: 0, seq: 0 }, 2, 'step_completed'));
    await step('feedEnd', () => events.feedEnd(C));
    await step('legacyCursorLimit', () => events.legacyCursorLimit(C));
    await step('removedThrough', () => events.removedThrough(C));
    const readAll = async (chunks: { next(): Promise<readonly unknown[] | { events: readonly unknown[] }>; close(): Promise<void> }) => {
      for (let chunk = await chunks.next(); ('events' in chunk ? chunk.events : chunk).length > 0; chunk = await chunks.next());
      await chunks.close();
    };
    await step('openList: no filter, read in chunks', async () => readAll(await events.openList(C, { ...page, filters: [] }, 1)));
    await step('openList: contains, ordered by flow_session desc, read in chunks', async () =>
      readAll(
        await events.openList(
          C,
          { filters: [{ field: 'flow_key', operator: 'contains', value: 'flow' }], order: { field: 'flow_session', direction: 'desc' }, limit: 2, offset: 0 },
          1,
        ),
      ),
    );
    await step('openChanges: one type, read in chunks', async () => readAll(await events.openChanges(C, { xid: 0, seq: 0 }, 2, 'step_completed', 1)));
  },

  // The events pages of src/fast-path/, on the events the script above stored: what the list
  // runs with WRS_FAST_PATH=true when no kept page answers.
  'fast-path-events': async (step, database) => {
    const pages = createFastEventPageReads(database);
    const page = { order: { field: 'created_at', direction: 'asc' }, limit: 2, offset: 0 } as const;
    await step('list: no filter', () => pages.list(C, { ...page, filters: [] }));
    await step('list: no filter, later pages (none left: the version, then the page again)', async () => {
      await pages.list(C, { ...page, offset: 2, filters: [] });
      await pages.list(C, { ...page, offset: 4, filters: [] });
    });
    for (const [name, query] of LIST_QUERIES) await step(name, () => pages.list(C, query));
    // A page over 1,000 events (fastPath.eventChunks), here of 2 read 1 at a time.
    const readAllChunks = async (query: Parameters<typeof openFastListChunks>[2]) => {
      const chunks = await openFastListChunks(database, C, query, 1);
      while ((await chunks.next()) !== null);
      await chunks.close();
    };
    await step('openFastListChunks: no filter, read in chunks', () => readAllChunks({ ...page, filters: [] }));
    await step('openFastListChunks: contains, ordered by flow_session desc, read in chunks', () =>
      readAllChunks({
        filters: [{ field: 'flow_key', operator: 'contains', value: 'flow' }],
        order: { field: 'flow_session', direction: 'desc' },
        limit: 2,
        offset: 0,
      }),
    );
  },

  'record-types': async (step, { db }) => {
    const types = createRecordTypesRepository(db);
    const inTransaction = <T>(work: (scope: TransactionScope) => Promise<T>) => createUnitOfWork(db).run(work);
    await step('unitOfWork.run + put: new', () =>
      inTransaction((scope) => types.put(C, 'invoice', { name: 'Invoice', definition: { fields: [], statuses: [], views: [] }, at: T0 }, scope)),
    );
    await step('unitOfWork.run + put: replace', () =>
      inTransaction((scope) => types.put(C, 'invoice', { name: 'Invoice', definition: { fields: [], statuses: [], views: [] }, at: T1 }, scope)),
    );
    await step('find', () => types.find(C, 'invoice'));
    await step('versions: all', () => types.versions(C));
    await step('versions: named', () => types.versions(C, ['invoice', 'order']));
    await step('findMany', () => types.findMany(C, ['invoice', 'order']));
    await step('list', () => types.list(C));
    await step('unitOfWork.run + remove', () => inTransaction((scope) => types.remove(C, 'invoice', T1, scope)));
  },

  'data-versions': async (step, { db }) => {
    const versions = createDataVersionsRepository(db);
    const inTransaction = <T>(work: (scope: TransactionScope) => Promise<T>) => createUnitOfWork(db).run(work);
    await step('current: none yet', () => versions.current(C));
    await step('unitOfWork.run + bump: first', () => inTransaction((scope) => versions.bump(scope, C)));
    await step('unitOfWork.run + bump: again', () => inTransaction((scope) => versions.bump(scope, C)));
    await step('current', () => versions.current(C));
  },

  records: async (step, database) => {
    const records = createRecordsRepository(database);
    const types = createRecordTypesRepository(database.db);
    const record = {
      id: 'r1',
      recordType: 'invoice',
      typeId: null,
      status: 'open',
      childRecords: [],
      fields: {},
      storedViews: ['inbox'],
      createdAt: T0,
      updatedAt: T0,
    };
    const inTransaction = <T>(work: (scope: TransactionScope) => Promise<T>) => createUnitOfWork(database.db).run(work);
    await inTransaction((scope) => types.put(C, 'typed', { name: 'Typed', definition: { fields: [], statuses: [], views: [] }, at: T0 }, scope));
    await step('unitOfWork.run + insertMany', () =>
      inTransaction((scope) => records.insertMany(C, [record, { ...record, id: 'r2', typeId: 'typed', storedViews: [] }], scope)),
    );
    await step('find', () => records.find(C, 'r1'));
    await step('findWithTypeVersion', () => records.findWithTypeVersion(C, 'r2'));
    await step('findKey', () => records.findKey(C, 'r1', 'created_at'));
    await step('findKey: updated_at', () => records.findKey(C, 'r1', 'updated_at'));
    await step('page: no filter', () => records.page(C, {}, { order: CREATED, limit: 2 }));
    await step('page: type, time and bounds, descending', () =>
      records.page(
        C,
        { recordType: 'invoice', time: { column: 'updated_at', after: T0, before: T1 } },
        { order: CREATED, after: { at: T0, id: 'r0', inclusive: true }, before: { at: T1, id: 'r9' }, backwards: true, limit: 2 },
      ),
    );
    await step('page: by updated_at, newest first, after a record', () =>
      records.page(C, {}, { order: { column: 'updated_at', descending: true }, after: { at: T1, id: 'r1' }, limit: 2 }),
    );
    await step('page: a custom type', () => records.page(C, { recordType: 'custom', typeId: 'typed' }, { order: CREATED, limit: 2 }));
    await step('page: view', () =>
      records.page(
        C,
        {
          view: {
            viewId: 'inbox',
            typed: [
              { typeId: 'typed', statuses: ['open', 'done'] },
              { typeId: 'other', statuses: [] },
            ],
          },
        },
        { order: CREATED, limit: 2 },
      ),
    );
    await step('exists', () => records.exists(C, { recordType: 'invoice' }, { order: CREATED, after: { at: T0, id: 'r1' } }));
    await step('count: records of a type', () => records.count(C, { typeId: 'typed' }));
    await step('page: records of a type, newest first', () =>
      records.page(C, { typeId: 'typed' }, { order: { column: 'created_at', descending: true }, limit: 10 }),
    );
    await step('existingIds', () => records.existingIds(C, ['r1', 'r3']));
    await step('unitOfWork.run + update: untyped record', () =>
      inTransaction((scope) => records.update(C, 'r1', () => ({ status: 'done', fields: {}, updatedAt: T1 }), scope)),
    );
    await step('unitOfWork.run + update: typed record', () =>
      inTransaction((scope) => records.update(C, 'r2', () => ({ status: 'done', fields: {}, updatedAt: T1 }), scope)),
    );
    await step('unitOfWork.run + mentioning', () => inTransaction((scope) => records.mentioning(C, 'r1', scope)));
    await step('unitOfWork.run + updateReferences', () =>
      inTransaction((scope) => records.updateReferences(C, 'r2', { parentRecord: null, childRecords: [], linked: {}, updatedAt: T1 }, scope)),
    );
    await step('unitOfWork.run + remove', () => inTransaction((scope) => records.remove(C, 'r1', () => undefined, scope)));
  },

  'record-tokens': async (step, { db }) => {
    const tokens = createRecordTokensRepository(db);
    const document = {
      key: 'k1',
      record_id: 'r1',
      user_id: 'u1',
      created_at: T0,
      expires_at: T1,
      visible_fields: ['f1'],
      status_editable: false,
      label: 'sent',
    };
    await step('insert', () => tokens.insert(C, document));
    await step('find', () => tokens.find(C, 'k1'));
    await step('listLive', () => tokens.listLive(C, 'r1', T0));
    await step('revoke', () => tokens.revoke(C, 'r1', 'k1', T1));
    await step('unitOfWork.run + revokeAllOfRecord', () => createUnitOfWork(db).run((scope) => tokens.revokeAllOfRecord(C, 'r1', T1, scope)));
  },

  checks: async (step, { db }) => {
    const checks = createChecksRepository(db);
    const row = { id: 'chk_1', date_created: T0, send_date: T1, scheduled: false, mail_type: 'usps_first_class', check: {} };
    const sort = { field: 'date_created', direction: 'desc' } as const;
    await step('insertAll', () => checks.insertAll(C, [row, { ...row, id: 'chk_2' }]));
    await step('existingIds', () => checks.existingIds(C, ['chk_1', 'chk_3']));
    await step('slice: first page', () => checks.slice(C, { filters: {}, sort, limit: 2, direction: 'forward' }));
    await step('slice: filtered, backward from a position', () =>
      checks.slice(C, {
        filters: {
          date_created: { lower: { at: T0, inclusive: true }, upper: { at: T1, inclusive: false } },
          scheduled: false,
          mail_type: 'usps_first_class',
        },
        sort: { field: 'send_date', direction: 'asc' },
        limit: 2,
        direction: 'backward',
        from: { key: { value: T1, id: 'chk_2' }, inclusive: true },
      }),
    );
  },

  'check-provider-credentials': async (step, { db }) => {
    const credentials = createCheckProviderCredentialsRepository(db);
    await step('put', () => credentials.put(C, 'lob', { encryptedKey: 'sealed', keyLast4: '1234', at: T0 }));
    await step('find', () => credentials.find(C, 'lob'));
    await step('remove', () => credentials.remove(C, 'lob'));
  },

  templates: async (step, { db }) => {
    const templates = createTemplatesRepository(db);
    const template = { id: 'invoice', templateJson: '{}', sizeBytes: 2, pages: 1, at: T0 };
    await step('save: new', () => templates.save(C, template));
    await step('save: replace', () => templates.save(C, { ...template, at: T1 }));
    await step('find', () => templates.find(C, 'invoice'));
    await step('list', () => templates.list(C));
    await step('delete', () => templates.delete(C, 'invoice'));
  },

  files: async (step, { db }) => {
    const files = createFilesRepository(db);
    const file = {
      id: 'f1',
      record_id: 'r1',
      filename: 'invoice.pdf',
      content_type: 'application/pdf',
      size_bytes: 2,
      pages: 1,
      sha256: '00',
      template_id: 'invoice',
      created_at: T0,
      blob_key: 'b1',
    };
    await step('insert', () => files.insert(C, file));
    await step('findForRecord', () => files.findForRecord(C, 'r1', 'f1'));
    await step('listForRecord', () => files.listForRecord(C, 'r1'));
    await step('unitOfWork.run + deleteForRecord', () => createUnitOfWork(db).run((scope) => files.deleteForRecord(C, 'r1', scope)));
  },

  idempotency: async (step, { db }) => {
    const keys = createIdempotencyRepository(db);
    const target = { companyId: C, scope: 'records.create', key: 'k1' };
    const claim = { token: 't1', requestHash: 'h1', expiresAt: T0 };
    const answer = { status: 201, headers: { 'content-type': 'application/json' }, body: '{}' };
    await step('claim: new', () => keys.claim(target, claim));
    await step('claim: taken', () => keys.claim(target, { ...claim, token: 't2' }));
    await step('find', () => keys.find(target));
    await step('renew', () => keys.renew(target, 't1', T1));
    await step('takeOver', () => keys.takeOver(target, { ...claim, token: 't2' }, T1));
    await step('complete', () => keys.complete(target, 't2', 'h1', answer, T1));
    await step('release', () => keys.release(target, 't2'));
    await step('deleteExpired', () => keys.deleteExpired(T1));
  },

  webhooks: async (step, { db }) => {
    const webhooks = createWebhooksRepository(db);
    const webhook = {
      id: 'w1',
      url: 'https://hooks.example.com/x',
      events: '["record.created","record.updated"]',
      description: null,
      enabled: true,
      secret: 'v1:sealed',
      created_at: T0,
      updated_at: T0,
    };
    await step('insert', () => webhooks.insert(C, webhook, 20));
    await step('list', () => webhooks.list(C));
    await step('find', () => webhooks.find(C, 'w1'));
    await step('update: events', () => webhooks.update(C, 'w1', { events: '["*"]', updated_at: T1 }));
    await step('update: disabled', () => webhooks.update(C, 'w1', { enabled: false, updated_at: T1 }));
    await step('rotate secret', () => webhooks.rotateSecret(C, 'w1', 'sealed-new', T1, T1));
    await step('unitOfWork.run + subscribers', () => createUnitOfWork(db).run((scope) => webhooks.subscribers(C, 'record.created', scope)));
    await step('remove', () => webhooks.remove(C, 'w1'));
  },

  'webhook-deliveries': async (step, database) => {
    const deliveries = createWebhookDeliveriesRepository(database);
    const delivery = { id: 'msg_1', webhookId: 'w1', eventType: 'record.created' as const, payload: '{}', createdAt: T0 };
    await step('unitOfWork.run + insertMany', () =>
      createUnitOfWork(database.db).run((scope) => deliveries.insertMany(C, [delivery, { ...delivery, id: 'msg_2' }], scope)),
    );
    const claim = { now: T1, leaseUntil: T1, owner: 'o1', skipWebhooks: [], skipCompanies: [], choose: (due: readonly DueDelivery[]) => [...due] };
    await step('claim', () => deliveries.claim({ ...claim, limit: 1 }));
    await step('claim: webhooks and companies at their share are skipped', () =>
      deliveries.claim({ ...claim, limit: 2, skipWebhooks: ['w2'], skipCompanies: ['c2', 'c3'] }),
    );
    await step('finish', () =>
      deliveries.finish('o1', [
        {
          company_id: C,
          id: 'msg_1',
          outcome: {
            status: 'delivered',
            attempts: 1,
            last_status_code: 200,
            last_error: null,
            last_response_body: 'ok',
            next_attempt_at: T1,
            delivered_at: T1,
            lease_until: T1,
          },
        },
      ]),
    );
    await step('redeliver', () => deliveries.redeliver(C, 'w1', 'msg_1', T1));
    await step('listForWebhook', () => deliveries.listForWebhook(C, 'w1', 100));
    await step('listForCompany: failed', () => deliveries.listForCompany(C, 'failed', 100));
  },

  retention: async (step, database) => {
    const retention = createRetentionRepository(database);
    await step('setCompanyRetention: days', () => retention.setCompanyRetention(C, 30));
    await step('companyRetention', () => retention.companyRetention(C));
    await step('companiesWithPeriod: no deployment default', () => retention.companiesWithPeriod(undefined));
    await step('companiesWithPeriod: a deployment default', () => retention.companiesWithPeriod(10));
    await step('exclusively + unitOfWork.run + removeOldest', () =>
      retention.exclusively(() => createUnitOfWork(database.db).run((scope) => retention.removeOldest(scope, C, T1, 1000, T1))),
    );
    await step('oldestKept', () => retention.oldestKept());
  },

  'company-profile': async (step, { db }) => {
    const profiles = createCompanyProfileRepository(db);
    await step('setProfile', () => profiles.setProfile(C, { display_name: 'Acme Equipment Finance', support_email: 'loans@acme.example' }));
    await step('profile', () => profiles.profile(C));
  },

  blobs: async (step, { db }) => {
    const blobs = createBlobsRepository(db, { now: () => new Date(T0) });
    await step('put', () => blobs.put(C, 'b1', new Uint8Array([1, 2])));
    await step('get', () => blobs.get(C, 'b1'));
    await step('delete', () => blobs.delete(C, 'b1'));
  },

  erasures: async (step, { db }) => {
    const erasures = createErasuresRepository(db);
    const inTransaction = <T>(work: (scope: TransactionScope) => Promise<T>) => createUnitOfWork(db).run(work);
    const job = { companyId: C, id: 'e1', subjectHash: 'h1', subjectSealed: 'v1:sealed', requestedBy: 'cli' as const, at: T0 };
    await step('start: new', () => erasures.start(job));
    await step('start: the running one', () => erasures.start({ ...job, id: 'e2' }));
    await step('get', () => erasures.get(C, 'e1'));
    await step('list', () => erasures.list(C));
    await step('running', () => erasures.running());
    await step('claim', () => erasures.claim(C, 'e1', T0, T1));
    await step('addProgress', () => inTransaction((scope) => erasures.addProgress(scope, C, 'e1', { events: 3, recordTokens: 1 }, T0, T1)));
    await step('finish', () => erasures.finish(C, 'e1', T1));
  },

  offboardings: async (step, { db }) => {
    const offboardings = createOffboardingsRepository(db);
    const inTransaction = <T>(work: (scope: TransactionScope) => Promise<T>) => createUnitOfWork(db).run(work);
    await step('start', () => offboardings.start(C, 'operator_api', T0));
    await step('get', () => offboardings.get(C));
    await step('running', () => offboardings.running());
    await step('claim', () => offboardings.claim(C, T0, T1));
    await step('saveProgress', () => inTransaction((scope) => offboardings.saveProgress(scope, C, { events: 2 }, T0, T1)));
    await step('finish', () => offboardings.finish(C, T1, { events: 2 }));
  },

  'company-data': async (step, { db }) => {
    const remover = createCompanyDataRemover(db);
    const inTransaction = <T>(work: (scope: TransactionScope) => Promise<T>) => createUnitOfWork(db).run(work);
    await step('removeUserEvents', () => inTransaction((scope) => remover.removeUserEvents(scope, C, 'u1', 1000)));
    await step('removeUserRecordTokens', () => inTransaction((scope) => remover.removeUserRecordTokens(scope, C, 'u1', 1000)));
    await step('removeBatch: events', () => inTransaction((scope) => remover.removeBatch(scope, 'events', C, 1000)));
  },
};

async function transcript(script: Script, database: Database): Promise<string> {
  const sections: string[] = [];
  await script(async (name, work) => {
    const statements = await statementsOf(work);
    sections.push(`-- ${name}\n${statements.map((statement) => `${statement};`).join('\n')}\n`);
  }, database);
  return sections.join('\n');
}

describeEachDatabase('SQL snapshots of the repositories', (kind) => {
  let testDatabase: TestDatabase;
  let database: Database;

  before(async () => {
    testDatabase = await createTestDatabase(kind);
    database = openDatabase(testDatabase.url);
    await migrateToLatest(database.db);
  });

  after(async () => {
    await database?.close();
    await testDatabase?.drop();
  });

  for (const [repository, script] of Object.entries(scripts)) {
    test(repository, async () => {
      // In the checkout, not in the mirror the tests run from: a snapshot written there would be lost.
      const file = join(PROJECT_ROOT, 'test/sql-snapshots', `${repository}.${kind}.sql`);
      const actual = await transcript(script, database);
      if (UPDATE) {
        writeFileSync(file, actual);
        return;
      }
      assert.ok(existsSync(file), `${file} is missing: run the test with WRS_UPDATE_SQL_SNAPSHOTS=1 to write it`);
      const hint = 'the SQL changed: if that is intended, rerun with WRS_UPDATE_SQL_SNAPSHOTS=1 and commit the .sql files';
      assert.equal(actual, readFileSync(file, 'utf8'), hint);
    });
  }
});
