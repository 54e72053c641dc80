import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, describe, it } from 'node:test';
import {
  RenderRejectedError,
  RendererUnavailableError,
  RenderTimeoutError,
  type PdfRenderer,
  type RenderRequest,
} from '../../src/domain/templates/pdf-renderer.port.js';
import { siblingModule } from '../../src/lib/module-thread.js';
import { createWorkerPoolRenderer } from '../../src/providers/pdf/worker-pool-renderer.js';
import { readPdf } from './fixtures/read-pdf.js';
import { invoiceTemplate, minimalTemplate } from './fixtures/templates.js';

const STALLING_WORKER = siblingModule(import.meta.url, 'fixtures/stalling-worker');

const request = (overrides: Partial<RenderRequest> = {}): RenderRequest => ({
  companyId: 'acme',
  template: minimalTemplate(),
  inputs: { title: 'Hello' },
  title: 'test',
  createdAt: '2026-01-01T00:00:00.000Z',
  ...overrides,
});

describe('worker-pool PDF renderer', () => {
  const renderers: PdfRenderer[] = [];
  const renderer = (options: Parameters<typeof createWorkerPoolRenderer>[0]) => {
    const created = createWorkerPoolRenderer(options);
    renderers.push(created);
    return created;
  };
  after(async () => {
    await Promise.all(renderers.map((r) => r.close()));
  });
  // The tests that only render with pdfme share one pool: starting a thread that loads pdfme is
  // most of what each would take.
  let pdfmePool: PdfRenderer | undefined;
  const sharedPdfmePool = () => (pdfmePool ??= renderer({ workers: 1, timeoutMs: 30_000 }));

  it('renders in a worker thread: a real PDF, its page count and the SHA-256 of its bytes', async () => {
    const pool = sharedPdfmePool();
    const rendered = await pool.render(
      request({ template: invoiceTemplate(), inputs: { customer: 'Initech', amount: '7', paid: 'false', id: 'r-1', status: 'new', created_at: 'then' } }),
    );
    assert.equal(rendered.pages, 2);
    assert.equal(rendered.sha256, createHash('sha256').update(rendered.bytes).digest('hex'));
    const parsed = await readPdf(rendered.bytes);
    assert.equal(parsed.pages, 2);
    assert.ok(parsed.text[0]!.includes('Initech'));
    assert.ok(parsed.text[0]!.includes('Record r-1 is new'));
  });

  it('renders the same request to the same bytes', async () => {
    const pool = sharedPdfmePool();
    const [first, second] = await Promise.all([pool.render(request()), pool.render(request())]);
    assert.equal(first!.sha256, second!.sha256);
  });

  it("rejects a template that cannot render these inputs, with pdfme's reason", async () => {
    const pool = sharedPdfmePool();
    const template = { ...minimalTemplate(), schemas: [[{ ...minimalTemplate().schemas[0]![0]!, required: true }]] };
    await assert.rejects(pool.render(request({ template, inputs: {} })), (error: unknown) => {
      assert.ok(error instanceof RenderRejectedError);
      assert.match(error.reason, /title/);
      assert.doesNotMatch(error.reason, /@pdfme/);
      return true;
    });
  });

  it('aborts a render past the timeout, and the replaced thread renders the next one', async () => {
    // The second render's clock starts once the replacement thread has loaded (the next test).
    const pool = renderer({ workers: 1, timeoutMs: 1000, workerFile: STALLING_WORKER });
    await assert.rejects(pool.render(request({ inputs: { title: 'hang' } })), RenderTimeoutError);
    const next = await pool.render(request({ inputs: { title: 'fine' } }));
    assert.equal(next.pages, 1);
  });

  it("starts the next render's clock only once the thread replacing a timed-out one has loaded", async () => {
    const pool = renderer({
      workers: 1,
      timeoutMs: 1000,
      queueTimeoutMs: 30_000,
      workerFile: siblingModule(import.meta.url, 'fixtures/slow-start-worker'),
    });
    await pool.render(request());
    const stuck = pool.render(request({ companyId: 'a', inputs: { title: 'hang' } }));
    const next = pool.render(request({ companyId: 'b', inputs: { title: 'fine' } }));
    await assert.rejects(stuck, RenderTimeoutError);
    assert.equal((await next).pages, 1);
  });

  it('does not charge a render for the thread loading what it needs beyond the warm-up', async () => {
    const pool = renderer({ workers: 1, timeoutMs: 500, startupTimeoutMs: 20_000, workerFile: STALLING_WORKER });
    assert.equal((await pool.render(request({ inputs: { title: 'prepare:1500' } }))).pages, 1);
  });

  it('bounds that load by the start-up timeout', async () => {
    const pool = renderer({ workers: 1, timeoutMs: 20_000, startupTimeoutMs: 2_000, workerFile: STALLING_WORKER });
    await pool.render(request());
    const started = Date.now();
    await assert.rejects(pool.render(request({ inputs: { title: 'prepare:60000' } })), (error: Error) => {
      assert.ok(error instanceof RenderTimeoutError);
      assert.match(error.message, /^loading the PDF plugins this template needs \(the start-up timeout\) did not finish within 2000 ms$/);
      return true;
    });
    assert.ok(Date.now() - started < 15_000, 'refused at the start-up timeout, not the render timeout');
    assert.equal((await pool.render(request({ inputs: { title: 'fine' } }))).pages, 1);
  });

  it('refuses renders beyond the queue limit as unavailable', async () => {
    const pool = renderer({ workers: 1, timeoutMs: 500, queueTimeoutMs: 10_000, maxQueue: 1, workerFile: STALLING_WORKER });
    const results = await Promise.allSettled([1, 2, 3].map(() => pool.render(request({ inputs: { title: 'hang' } }))));
    const reasons = results.map((result) => (result.status === 'rejected' ? (result.reason as Error).name : 'fulfilled'));
    assert.deepEqual(reasons.sort(), ['RenderTimeoutError', 'RenderTimeoutError', 'RendererUnavailableError']);
  });

  it("counts a render's timeout from the moment it has a thread, not while it waits for one", async () => {
    // Four renders of 400 ms on one thread: the last waits 1200 ms, more than the timeout, and still renders.
    const pool = renderer({ workers: 1, timeoutMs: 1500, queueTimeoutMs: 30_000, workerFile: STALLING_WORKER });
    await pool.render(request());
    const results = await Promise.allSettled([1, 2, 3, 4].map(() => pool.render(request({ inputs: { title: 'slow:400' } }))));
    assert.deepEqual(
      results.map((result) => (result.status === 'rejected' ? (result.reason as Error).name : 'fulfilled')),
      ['fulfilled', 'fulfilled', 'fulfilled', 'fulfilled'],
    );
  });

  it('refuses a render that waited for a thread longer than the queue timeout as unavailable', async () => {
    const pool = renderer({ workers: 1, timeoutMs: 10_000, queueTimeoutMs: 200, workerFile: STALLING_WORKER });
    await pool.render(request());
    const busy = pool.render(request({ companyId: 'slowco', inputs: { title: 'slow:1500' } }));
    await assert.rejects(pool.render(request({ companyId: 'other' })), (error: unknown) => {
      assert.ok(error instanceof RendererUnavailableError);
      assert.match(error.message, /no PDF render thread was free within 200 ms/);
      return true;
    });
    assert.equal((await busy).pages, 1);
  });

  it('gives another company the next free thread, ahead of the renders one company queued before it', async () => {
    const pool = renderer({ workers: 1, timeoutMs: 10_000, queueTimeoutMs: 30_000, workerFile: STALLING_WORKER });
    await pool.render(request());
    const finished: string[] = [];
    const track = (label: string, companyId: string, title: string) => pool.render(request({ companyId, inputs: { title } })).then(() => finished.push(label));
    const flood = [1, 2, 3, 4, 5].map((n) => track(`a${n}`, 'a', 'slow:300'));
    await new Promise((resolve) => setTimeout(resolve, 50));
    await Promise.all([...flood, track('b', 'b', 'quick')]);
    assert.deepEqual(finished, ['a1', 'b', 'a2', 'a3', 'a4', 'a5']);
  });

  it('keeps room in a full queue for a company with fewer renders waiting than the busiest', async () => {
    const pool = renderer({ workers: 1, timeoutMs: 10_000, queueTimeoutMs: 30_000, maxQueue: 3, workerFile: STALLING_WORKER });
    await pool.render(request());
    const outcome = (promise: Promise<unknown>) =>
      promise.then(
        () => 'rendered',
        (error: Error) => error.name,
      );
    const flood = [1, 2, 3, 4].map(() => outcome(pool.render(request({ companyId: 'a', inputs: { title: 'slow:300' } }))));
    await new Promise((resolve) => setTimeout(resolve, 50));
    const other = outcome(pool.render(request({ companyId: 'b' })));
    assert.equal(await other, 'rendered');
    assert.deepEqual(await Promise.all(flood), ['rendered', 'rendered', 'rendered', 'RendererUnavailableError']);
  });

  it('reports a worker that cannot start as unavailable, and tries again on the next render', async () => {
    const poolErrors: unknown[] = [];
    const pool = renderer({
      workers: 1,
      timeoutMs: 1000,
      workerFile: siblingModule(import.meta.url, 'fixtures/no-such-worker'),
      onPoolError: (error) => poolErrors.push(error),
    });
    await assert.rejects(pool.render(request()), RendererUnavailableError);
    await assert.rejects(pool.render(request()), RendererUnavailableError);
  });

  it('renders several documents at once on one thread, each to the bytes it renders to alone', async () => {
    const pool = renderer({ workers: 1, rendersPerThread: 4, timeoutMs: 30_000 });
    const invoice = (customer: string) =>
      request({ template: invoiceTemplate(), inputs: { customer, amount: '7', paid: 'false', id: customer, status: 'new', created_at: 'then' } });
    const customers = ['Initech', 'Globex', 'Umbrella', 'Hooli'];
    const alone = await pool.render(invoice('Initech'));
    const together = await Promise.all(customers.map((customer) => pool.render(invoice(customer))));
    assert.equal(pool.threadsRunning(), 1);
    assert.equal(together[0]!.sha256, alone.sha256);
    for (const [index, rendered] of together.entries()) {
      const parsed = await readPdf(rendered.bytes);
      assert.equal(parsed.pages, 2);
      assert.ok(parsed.text[0]!.includes(customers[index]!), `render ${index} shows ${customers[index]}`);
      for (const other of customers.filter((customer) => customer !== customers[index])) {
        assert.ok(!parsed.text[0]!.includes(other), `render ${index} does not show ${other}`);
      }
    }
  });

  it('times out only the render past its limit: the renders sharing its thread run again on the replacement', async () => {
    const pool = renderer({ workers: 1, rendersPerThread: 2, timeoutMs: 1000, workerFile: STALLING_WORKER });
    await pool.render(request());
    const stuck = pool.render(request({ companyId: 'a', inputs: { title: 'hang' } }));
    const neighbour = pool.render(request({ companyId: 'b', inputs: { title: 'fine' } }));
    await assert.rejects(stuck, RenderTimeoutError);
    assert.equal((await neighbour).pages, 1);
  });

  it('keeps one place for another company when one company asks for more than the threads hold', async () => {
    const pool = renderer({ workers: 1, rendersPerThread: 3, timeoutMs: 10_000, queueTimeoutMs: 30_000, workerFile: STALLING_WORKER });
    await pool.render(request());
    const finished: string[] = [];
    const track = (label: string, companyId: string, title: string) => pool.render(request({ companyId, inputs: { title } })).then(() => finished.push(label));
    const flood = [1, 2, 3].map((n) => track(`a${n}`, 'a', 'slow:300'));
    await new Promise((resolve) => setTimeout(resolve, 50));
    await Promise.all([...flood, track('b', 'b', 'quick')]);
    assert.notEqual(finished.at(-1), 'b');
    assert.equal(finished.indexOf('b') < finished.indexOf('a3'), true, finished.join(', '));
  });

  it('refuses renders once closed', async () => {
    const pool = renderer({ workers: 1, timeoutMs: 30_000, workerFile: STALLING_WORKER });
    await pool.render(request());
    await pool.close();
    await assert.rejects(pool.render(request()), RendererUnavailableError);
  });
});

describe('worker-pool PDF renderer when idle', () => {
  it('starts a second thread only while the first is full, and stops each after the idle time', async () => {
    const pool = createWorkerPoolRenderer({ workers: 2, rendersPerThread: 2, timeoutMs: 30_000, idleShutdownMs: 300, workerFile: STALLING_WORKER });
    try {
      const slow = () => pool.render(request({ inputs: { title: 'slow:200' } }));
      // The most threads running while `renders` run: sampled, since a thread that starts slowly
      // on a loaded machine lets the other finish and idle out before the batch ends.
      const mostThreadsDuring = async (renders: Promise<unknown>[]) => {
        let most = pool.threadsRunning();
        const sampler = setInterval(() => (most = Math.max(most, pool.threadsRunning())), 2);
        await Promise.all(renders);
        clearInterval(sampler);
        return Math.max(most, pool.threadsRunning());
      };
      assert.equal(await mostThreadsDuring([slow(), slow()]), 1, 'two renders at once fit one thread');
      assert.equal(await mostThreadsDuring([slow(), slow(), slow()]), 2, 'a third render at once starts a second thread');
      const idleSince = Date.now();
      while (pool.threadsRunning() > 0) {
        assert.ok(Date.now() - idleSince < 10_000, 'the threads stop once idle');
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      assert.ok(Date.now() - idleSince >= 250, 'not before the idle time');
      assert.equal((await pool.render(request())).pages, 1);
      assert.equal(pool.threadsRunning(), 1);
    } finally {
      await pool.close();
    }
  });

  it('stops its threads after the idle time and starts them again for the next render', async () => {
    const pool = createWorkerPoolRenderer({ workers: 1, timeoutMs: 30_000, idleShutdownMs: 200 });
    try {
      assert.equal(pool.threadsRunning(), 0, 'no threads before the first render');
      await pool.render(request());
      assert.equal(pool.threadsRunning(), 1);
      await new Promise((resolve) => setTimeout(resolve, 800));
      assert.equal(pool.threadsRunning(), 0, 'threads stopped after the idle time');
      const again = await pool.render(request());
      assert.equal(again.pages, 1);
      assert.equal(pool.threadsRunning(), 1);
    } finally {
      await pool.close();
    }
  });
});
