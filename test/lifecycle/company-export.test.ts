import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { AppError } from '../../src/errors/app-error.js';
import { BUSY_COMPANY, BUSY_EVENTS, COMPANY, feedPages, fillService, readPath, RETENTION_COMPANY, type SourceData } from '../cli/copy-database-fixtures.js';
import { describeEachDatabase, PG_URL, type DatabaseKind } from '../helpers/databases.js';
import { oneRendererForTheFile } from '../helpers/shared-pdf-renderer.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { expectStatus } from '../records/fixtures.js';
import { FAST_WEBHOOKS, startReceiver, type Receiver } from '../webhooks/receiver.js';
import { assertSameExport, exportOf, importText, linesOf } from './export-fixtures.js';

const APP_ENV = { ...FAST_WEBHOOKS, WRS_PDF_WORKERS: '1' };
// The file's apps share one renderer, whose thread loads pdfme once for all their renders.
const appOptions = { env: APP_ENV, context: oneRendererForTheFile() };

/** What a company's users see, which must read the same on the deployment the company moved to. */
function movedPaths(data: SourceData): string[] {
  return [
    '/v1/record-types',
    '/v1/records',
    ...data.recordIds.map((id) => `/v1/records/${id}`),
    ...data.recordIds.map((id) => `/v1/records/${id}/files`),
    `/v1/records/${data.recordIds[1]}/tokens`,
    '/v1/templates',
    '/v1/webhooks',
    '/v1/checks',
    '/v1/events?limit=1000',
    '/v1/events?limit=1000&order_by=-created_at&excluded=true',
  ];
}

async function expectRefused(promise: Promise<unknown>, code: string, message: RegExp): Promise<void> {
  await assert.rejects(promise, (error: unknown) => {
    assert.ok(error instanceof AppError, String(error));
    assert.equal(error.code, code);
    assert.match(error.message, message);
    return true;
  });
}

/** Rewrites the trailer's checksum to match edited lines, as a forger (not a damaged disk) would. */
function resealed(lines: string[]): string {
  const body = lines
    .slice(0, -1)
    .map((line) => `${line}\n`)
    .join('');
  const trailer = JSON.parse(lines.at(-1)!) as Record<string, unknown>;
  trailer.sha256 = createHash('sha256').update(body).digest('hex');
  return `${body}${JSON.stringify(trailer)}\n`;
}

describeEachDatabase('company export', (kind) => {
  let source: TestApp;
  let target: TestApp;
  let receiver: Receiver;
  let text: string;

  before(async () => {
    receiver = await startReceiver();
    source = await createTestApp(kind, appOptions);
    target = await createTestApp(kind, appOptions);
    await fillService(source, receiver.base);
    text = await exportOf(source, COMPANY);
  });
  after(async () => {
    await source?.close();
    await target?.close();
    await receiver?.close();
  });

  it('answers 401 to a company user token, and to no token', async () => {
    const user = await source.as(COMPANY, { url: `/admin/v1/companies/${COMPANY}/export` });
    expectStatus(user, 401, 'unauthorized');
    const none = await source.app.inject({ url: `/admin/v1/companies/${COMPANY}/export` });
    expectStatus(none, 401, 'unauthorized');
  });

  it('streams a header, one line per item and a trailer with counts and the checksum of the lines before it', () => {
    const lines = linesOf(text);
    const header = JSON.parse(lines[0]!);
    assert.deepEqual(Object.keys(header), ['format', 'version', 'company', 'service_version', 'exported_at', 'database']);
    assert.equal(header.format, 'wrs-company-export');
    assert.equal(header.version, 1);
    assert.equal(header.company, COMPANY);
    assert.equal(header.database, kind);
    const trailer = JSON.parse(lines.at(-1)!);
    assert.equal(trailer.kind, 'trailer');
    const before = text.slice(0, text.length - lines.at(-1)!.length - 1);
    assert.equal(trailer.sha256, createHash('sha256').update(before).digest('hex'));
    const counted: Record<string, number> = {};
    for (const line of lines.slice(1, -1)) {
      const item = JSON.parse(line) as { kind: string; data: Record<string, unknown> };
      assert.deepEqual(Object.keys(item), ['kind', 'data']);
      assert.equal('company_id' in item.data, false);
      counted[item.kind] = (counted[item.kind] ?? 0) + 1;
    }
    for (const [itemKind, count] of Object.entries(trailer.counts)) assert.equal(counted[itemKind] ?? 0, count, itemKind);
    for (const itemKind of ['record_types', 'records', 'record_tokens', 'pdf_templates', 'record_files', 'blobs', 'checks', 'webhooks', 'events']) {
      assert.ok(trailer.counts[itemKind] > 0, `${itemKind} exported`);
    }
  });

  it('carries no secret: no webhook secret, no token string, no provider key', async () => {
    const lines = linesOf(text)
      .slice(1, -1)
      .map((line) => JSON.parse(line) as { kind: string; data: Record<string, unknown> });
    const webhook = lines.find((item) => item.kind === 'webhooks')!;
    assert.equal('secret' in webhook.data, false);
    // A blob's base64 may hold "eyJ" and ten more letters by chance (a PDF's bytes); every other line is searched.
    const withoutBlobs = linesOf(text)
      .filter((line) => !line.startsWith('{"kind":"blobs"'))
      .join('\n');
    assert.doesNotMatch(withoutBlobs, /whsec_|v1:[A-Za-z0-9_-]{20,}|eyJ[A-Za-z0-9_-]{10,}/);
    const lobco = await exportOf(source, 'lobco');
    assert.doesNotMatch(lobco, /test_lobco|check_provider_credentials/);
  });

  it('exports the same bytes twice, apart from the header time', async () => {
    assertSameExport(text, await exportOf(source, COMPANY));
  });

  it('exports an unknown company as a header, zero counts and a trailer', async () => {
    const lines = linesOf(await exportOf(source, 'nobody'));
    assert.equal(lines.length, 2);
    assert.ok(Object.values(JSON.parse(lines[1]!).counts).every((count) => count === 0));
  });

  it('refuses a truncated file and an altered one, importing nothing', async () => {
    const lines = linesOf(text);
    const cut = text.slice(0, Math.floor(text.length / 2));
    await expectRefused(importText(target, cut), 'invalid_export_file', /truncated; nothing was imported/);
    await expectRefused(importText(target, `${lines.slice(0, -1).join('\n')}\n`), 'invalid_export_file', /without its trailer line: it is truncated/);
    const altered = text.replace('"status":"sent"', '"status":"paid"');
    assert.notEqual(altered, text);
    await expectRefused(
      importText(target, altered),
      'invalid_export_file',
      /checksum does not match its lines \(the file was altered or damaged\): nothing was imported/,
    );
    const dropped = resealed([...lines.slice(0, 3), ...lines.slice(4)]);
    await expectRefused(importText(target, dropped), 'invalid_export_file', /the trailer counts \d+ \w+ lines but the file holds \d+/);
    const otherVersion = lines.slice();
    otherVersion[0] = otherVersion[0]!.replace('"version":1', '"version":2');
    await expectRefused(
      importText(target, resealed(otherVersion)),
      'invalid_export_file',
      /format version 2 of wrs-company-export; this wrs reads version 1 only/,
    );
    await expectRefused(importText(target, '{"hello":"world"}\n'), 'invalid_export_file', /not a wrs company export/);
    assert.deepEqual(await tablesOf(target, COMPANY), []);
  });

  it('fails a write mid-way without leaving a row behind', async () => {
    const lines = linesOf(text);
    // A second record with the first one's id passes the line checks; the database refuses it, after earlier rows were written.
    const records = lines.flatMap((line, index) => (line.startsWith('{"kind":"records"') ? [index] : []));
    const broken = lines.slice();
    broken[records[1]!] = broken[records[0]!]!;
    await expectRefused(
      importText(target, resealed(broken)),
      'invalid_export_file',
      /the database refused the records items before line \d+: .*; nothing was imported/,
    );
    assert.deepEqual(await tablesOf(target, COMPANY), []);
  });

  it('imports into an empty company, then refuses a second import: the company has data', async () => {
    const report = await importText(target, text);
    assert.equal(report.company, COMPANY);
    assert.equal(report.webhooks.length, 1);
    assert.match(report.webhooks[0]!.secret, /^whsec_/);
    assertSameExport(text, await exportOf(target, COMPANY));
    await expectRefused(
      importText(target, text),
      'company_has_data',
      new RegExp(
        `company '${COMPANY}' already has data on this deployment \\(in company_settings, record_types, .*\\); an import only fills a company that has none`,
      ),
    );
  });
});

async function tablesOf(t: TestApp, company: string): Promise<string[]> {
  const { createCompanyDataStore } = await import('../../src/storage/company-data/company-data-store.js');
  return createCompanyDataStore(t.ctx.database).tablesHolding(company);
}

describe('company export: moving a company between SQLite and PostgreSQL', { skip: PG_URL ? false : 'WRS_TEST_PG_URL is not set' }, () => {
  for (const [from, to] of [
    ['sqlite', 'postgres'],
    ['postgres', 'sqlite'],
  ] as [DatabaseKind, DatabaseKind][]) {
    describe(`${from} into ${to}`, () => {
      let source: TestApp;
      let target: TestApp;
      let receiver: Receiver;
      let data: SourceData;

      before(async () => {
        receiver = await startReceiver();
        source = await createTestApp(from, appOptions);
        target = await createTestApp(to, appOptions);
        data = await fillService(source, receiver.base);
      });
      after(async () => {
        await source?.close();
        await target?.close();
        await receiver?.close();
      });

      it('exports, imports and exports again the same lines; the company reads the same', async () => {
        for (const company of [COMPANY, BUSY_COMPANY, RETENTION_COMPANY]) {
          const first = await exportOf(source, company);
          const report = await importText(target, first);
          assert.equal(report.source.database, from);
          const second = await exportOf(target, company);
          assertSameExport(first, second);
          assert.equal(JSON.parse(linesOf(second)[0]!).database, to);
        }
        assert.equal(JSON.parse(linesOf(await exportOf(target, BUSY_COMPANY)).at(-1)!).counts.events, BUSY_EVENTS);

        for (const path of movedPaths(data)) {
          assert.deepEqual(await readPath(target, { company: COMPANY, path }), await readPath(source, { company: COMPANY, path }), path);
        }
        // The company with a retention period keeps it, and its kept events; the removed one stays removed.
        const settings = linesOf(await exportOf(source, RETENTION_COMPANY)).filter((line) => line.includes('"kind":"company_settings"'));
        assert.deepEqual(
          settings.map((line) => JSON.parse(line).data),
          [{ retention_days: 30, display_name: null, support_email: null }],
        );
        // The company's profile moves with it: the hosted form names it on the new deployment too.
        const profilePath = `/admin/v1/companies/${COMPANY}/profile`;
        const profile = await readPath(target, { company: 'admin', path: profilePath });
        assert.deepEqual(profile, await readPath(source, { company: 'admin', path: profilePath }));
        assert.equal((profile.body as { display_name: string }).display_name, 'Copy & Co Équipement');
        const retentionPath = `/admin/v1/companies/${RETENTION_COMPANY}/retention`;
        const moved = await readPath(target, { company: 'admin', path: retentionPath });
        assert.deepEqual(moved, await readPath(source, { company: 'admin', path: retentionPath }));
        assert.equal((moved.body as { retention_days: number }).retention_days, 30);
        await retentionWatermarkAfterImport(source, target);

        const pdf = async (t: TestApp) => (await t.as(COMPANY, { url: data.pdfPath })).rawPayload;
        assert.deepEqual(await pdf(target), await pdf(source));
        // The target hands out feed positions of its own, in the source's feed order.
        const ids = async (t: TestApp) => (await feedPages(t, BUSY_COMPANY)).flatMap((page) => page.body.results.map((event) => event.id));
        assert.deepEqual(await ids(target), await ids(source));
      });
    });
  }
});

/**
 * What the source's `events_removed` mark means after a move: the target never removed anything
 * of its own feed, so it has no mark; its feed starts at the oldest event kept (what was
 * exported), its own cursors are never refused, and its next sweep raises a mark of its own.
 */
async function retentionWatermarkAfterImport(source: TestApp, target: TestApp): Promise<void> {
  const markOf = (t: TestApp) =>
    t.ctx.database.db.selectFrom('events_removed').select('company_id').where('company_id', '=', RETENTION_COMPANY).executeTakeFirst();
  assert.ok(await markOf(source), 'the source removed an event: it has a mark');
  assert.equal(await markOf(target), undefined, "the source's positions are not the target's: no mark moves");
  const pages = await feedPages(target, RETENTION_COMPANY, 1);
  assert.deepEqual(
    pages.flatMap((page) => page.body.results.map((event) => event.id)),
    ['ret-kept'],
  );
  // A cursor of the target, from its start, reads on: nothing was removed from the target's feed.
  const fromStart = await target.as(RETENTION_COMPANY, { url: `/v1/events/changes?after=${pages[0]!.after || pages[0]!.body.next_cursor}` });
  assert.equal(fromStart.statusCode, 200, fromStart.body);
  // The target's sweep (the period came with the company) finds nothing more to remove.
  assert.equal((await target.ctx.retention.sweep()).removed, 0);
  assert.equal(await markOf(target), undefined);
}
