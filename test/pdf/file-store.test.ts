import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { createFileService } from '../../src/domain/files/file-service.js';
import type { BlobStore } from '../../src/domain/files/blob-store.port.js';
import { createFilesRepository } from '../../src/storage/repositories/files-repository.js';
import { createUnitOfWork } from '../../src/storage/unit-of-work.js';
import { describeEachDatabase } from '../helpers/databases.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

const file = (bytes: Uint8Array) => ({
  recordId: 'rec-1',
  filename: 'a.pdf',
  contentType: 'application/pdf',
  templateId: 'tpl',
  bytes,
  pages: 1,
  sha256: '0'.repeat(64),
});

describeEachDatabase('stored files and the database blob store', (kind) => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp(kind);
  });
  after(() => t.close());

  const filesOf = (companyId: string) => t.ctx.database.db.selectFrom('record_files').selectAll().where('company_id', '=', companyId).execute();

  it('writes metadata and bytes together, and reads the bytes back unchanged', async () => {
    const service = t.ctx.files;
    const bytes = new Uint8Array([0, 1, 2, 250, 255, 37, 80, 68, 70]);
    const stored = await service.store('acme', file(bytes));
    const { file: read, bytes: back } = await service.download('acme', 'rec-1', stored.id);
    assert.deepEqual(read, stored);
    assert.deepEqual(new Uint8Array(back!), bytes);
  });

  it('stores nothing when the bytes cannot be written', async () => {
    const failing: BlobStore = {
      ...t.ctx.blobStore,
      async put(companyId, key, bytes, within) {
        await t.ctx.blobStore.put(companyId, key, bytes, within);
        throw new Error('disk full');
      },
    };
    const service = createFileService({
      unitOfWork: createUnitOfWork(t.ctx.database.db),
      files: createFilesRepository(t.ctx.database.db),
      blobs: failing,
      clock: t.ctx.clock,
      recordExists: t.ctx.records.exists,
    });
    await assert.rejects(service.store('initech', file(new Uint8Array([1, 2, 3]))), /disk full/);
    assert.deepEqual(await filesOf('initech'), []);
    const blobs = await t.ctx.database.db.selectFrom('blobs').select('key').where('company_id', '=', 'initech').execute();
    assert.deepEqual(blobs, []);
  });

  it('keeps blobs per company', async () => {
    await t.ctx.blobStore.put('acme', 'shared-key', new Uint8Array([9]));
    assert.equal(await t.ctx.blobStore.get('globex', 'shared-key'), null);
    assert.deepEqual([...(await t.ctx.blobStore.get('acme', 'shared-key'))!], [9]);
    await t.ctx.blobStore.delete('globex', 'shared-key');
    assert.ok(await t.ctx.blobStore.get('acme', 'shared-key'));
    await t.ctx.blobStore.delete('acme', 'shared-key');
    assert.equal(await t.ctx.blobStore.get('acme', 'shared-key'), null);
  });

  it("does not serve a company's file to another company", async () => {
    const stored = await t.ctx.files.store('acme', file(new Uint8Array([1])));
    await assert.rejects(t.ctx.files.download('globex', 'rec-1', stored.id), { status: 404 });
  });
});
