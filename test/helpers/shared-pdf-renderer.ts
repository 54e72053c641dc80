import { after } from 'node:test';
import { loadConfig } from '../../src/config/config.js';
import type { PdfRenderer } from '../../src/domain/templates/pdf-renderer.port.js';
import { createWorkerPoolRenderer } from '../../src/providers/pdf/worker-pool-renderer.js';
import { TEST_ADMIN_TOKEN, TEST_JWT_SECRET } from './test-app.js';

/**
 * The renderer a test app with WRS_PDF_WORKERS=1 builds for itself, built apart so that the apps
 * of one test file can share it (pass `keptOpen(renderer)` as `context.pdfRenderer`): its thread
 * loads pdfme on its first render, which an app of its own would pay once more. Close it after
 * the apps.
 */
export function createTestRenderer(): PdfRenderer {
  const { pdf } = loadConfig({
    NODE_ENV: 'test',
    WRS_DATABASE_URL: 'sqlite::memory:',
    WRS_JWT_SECRET: TEST_JWT_SECRET,
    WRS_ADMIN_TOKEN: TEST_ADMIN_TOKEN,
    WRS_ENCRYPTION_KEY: '00'.repeat(32),
    WRS_PDF_WORKERS: '1',
  });
  return createWorkerPoolRenderer({
    workers: pdf.workers ?? 1,
    rendersPerThread: pdf.rendersPerThread,
    threadNice: pdf.threadNice,
    isolation: pdf.isolation,
    idleShutdownMs: pdf.threadIdleMs,
    timeoutMs: pdf.timeoutMs,
    queueTimeoutMs: pdf.queueTimeoutMs,
  });
}

/** A shared renderer as one app sees it: closing the app does not close it. */
export function keptOpen(renderer: PdfRenderer): PdfRenderer {
  return {
    render: (request) => renderer.render(request),
    admits: (companyId) => renderer.admits(companyId),
    get workers() {
      return renderer.workers;
    },
    usage: () => renderer.usage(),
    close: async () => undefined,
  };
}

/**
 * One renderer for all the apps of the test file that calls this at its top level, closed after
 * the file's tests: pass what it returns as each app's `context`.
 */
export function oneRendererForTheFile(): { readonly pdfRenderer: PdfRenderer } {
  const renderer = createTestRenderer();
  after(() => renderer.close());
  return { pdfRenderer: keptOpen(renderer) };
}
