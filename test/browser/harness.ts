// Browser tests: the real service on a real database with the demo data, driven through Debian's
// Chromium by playwright-core (`.ci/run` installs the `chromium` package; nothing is downloaded).
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe } from 'node:test';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { DEMO_COMPANY_ID } from '../../src/cli/welcome.js';
import { seedDemo } from '../../src/demo/seed-demo.js';
import type { PdfRenderer } from '../../src/domain/templates/pdf-renderer.port.js';
import { ShiftedClock } from '../../src/lib/clock.js';
import { ROOT } from '../helpers/cli-process.js';
import type { DatabaseKind } from '../helpers/databases.js';
import { createTestRenderer, keptOpen } from '../helpers/shared-pdf-renderer.js';
import { createTestApp, type TestApp, type TestAppOptions } from '../helpers/test-app.js';

export { DEMO_COMPANY_ID };

export const CHROMIUM_PATH = process.env.WRS_CHROMIUM_PATH ?? '/usr/bin/chromium';

/** The flags the machine's closed network needs: no background connections, no GPU, no sandbox as root. */
const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
];

export interface ConsoleService {
  readonly t: TestApp;
  readonly baseUrl: string;
  /** The service's clock: the system's, until a test moves it past a token's expiry. */
  readonly clock: ShiftedClock;
  /** A demo-company user's token, as `npm start` prints one. */
  demoToken(): Promise<string>;
  close(): Promise<void>;
}

/** The real app with the demo company seeded, listening on a free port of 127.0.0.1. */
export async function startConsoleService(kind: DatabaseKind, options: TestAppOptions = {}): Promise<ConsoleService> {
  const clock = new ShiftedClock();
  const t = await createTestApp(kind, {
    clock,
    ...options,
    env: { WRS_PUBLIC_URL: undefined as unknown as string, WRS_WEBHOOK_ALLOW_PRIVATE_URLS: 'true', WRS_PDF_WORKERS: '1', ...options.env },
  });
  await seedDemo(t.ctx, DEMO_COMPANY_ID);
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  const baseUrl = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  return { t, baseUrl, clock, demoToken: () => t.userToken(DEMO_COMPANY_ID, 'demo-user'), close: () => t.close() };
}

export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS, headless: true });
}

/**
 * A fresh page whose script errors and console errors (a Content-Security-Policy violation is
 * one) are collected; `assertNoPageErrors` fails the test on any of them.
 */
export async function newPage(
  browser: Browser,
  options: { width?: number; height?: number; clockAt?: Date } = {},
): Promise<{ context: BrowserContext; page: Page; errors: string[] }> {
  const context = await browser.newContext({ viewport: { width: options.width ?? 1280, height: options.height ?? 860 } });
  // A page that will see a token expire runs on a clock the test can move (jumpPastExpiry).
  if (options.clockAt) await context.clock.install({ time: options.clockAt });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(`page error: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(`console error: ${message.text()}`);
  });
  return { context, page, errors };
}

/** Console errors that a test provoked on purpose (a failed request the page then explains). */
export function assertNoPageErrors(errors: readonly string[], expected: RegExp[] = []): void {
  const unexpected = errors.filter((error) => !expected.some((pattern) => pattern.test(error)) && !/Failed to load resource/.test(error));
  assert.deepEqual(unexpected, [], 'the page logged errors');
}

/**
 * Moves time past a JWT's `exp` at once instead of waiting it out: the service's clock, and the
 * page's (installed with `newPage(..., { clockAt: service.clock.now() })`) by as much, as if the
 * person had left the page open that long.
 */
export async function jumpPastExpiry(service: ConsoleService, context: BrowserContext, token: string): Promise<void> {
  const { exp } = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString('utf8')) as { exp: number };
  const shiftMs = Math.max(0, exp * 1000 - service.clock.now().getTime()) + 1000;
  service.clock.advanceSeconds(shiftMs / 1000);
  await context.clock.fastForward(shiftMs);
}

/** Opens the console and signs in with a bearer token, as a person would: paste, submit. */
export async function signIn(page: Page, baseUrl: string, token: string): Promise<void> {
  await page.goto(`${baseUrl}/app/`);
  await page.getByLabel('Bearer token').fill(token);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('navigation', { name: 'Console' }).waitFor();
}

/**
 * A fresh page with the console's session already in its tab, as the sign-in page leaves it (the
 * token in sessionStorage, which `signIn` fills through the form): for the tests of what lies
 * behind the sign-in, which the sign-in tests check on their own. Go to a console page next.
 */
export async function newSignedInPage(
  suite: BrowserSuite,
  options: { width?: number; height?: number; clockAt?: Date; token?: string } = {},
): Promise<{ context: BrowserContext; page: Page; errors: string[] }> {
  const opened = await newPage(suite.browser, options);
  await putSession(opened.page, suite.service.baseUrl, options.token ?? (await suite.service.demoToken()));
  return opened;
}

/** Puts a console session into the page's tab, as the sign-in page leaves it; see `newSignedInPage`. */
export async function putSession(page: Page, baseUrl: string, token: string): Promise<void> {
  // Any document of the service's origin opens the tab's sessionStorage there; this one is small.
  await page.goto(`${baseUrl}/healthz`);
  await page.evaluate(`sessionStorage.setItem('wrs.console.token', ${JSON.stringify(token)})`);
}

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: unknown[] }[];
}

/** Runs axe-core on the page as it is now; fails on any violation, whatever its impact (minor included). */
export async function assertAccessible(page: Page, what: string): Promise<void> {
  // Evaluated through the DevTools protocol, which the page's CSP does not govern; once a document
  // (a page checked twice keeps it).
  if (!(await page.evaluate('typeof axe === "object"'))) await page.evaluate(axeSource);
  const violations = await page.evaluate(async () => {
    // The page's globals, typed here because the tests compile without the DOM library.
    const { axe, document } = globalThis as unknown as {
      document: unknown;
      axe: { run(context: unknown, options: unknown): Promise<{ violations: AxeViolation[] }> };
    };
    const result = await axe.run(document, { resultTypes: ['violations'] });
    return result.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map((n) => n.target) }));
  });
  assert.deepEqual(violations, [], `${what}: axe-core found violations`);
}

/**
 * Saves a screenshot: into docs/screenshots (the README shows them) when
 * WRS_UPDATE_SCREENSHOTS=1, otherwise into a temporary folder so a test run leaves the tree clean.
 */
export async function screenshot(page: Page, name: string): Promise<string> {
  const dir = process.env.WRS_UPDATE_SCREENSHOTS === '1' ? join(ROOT, 'docs/screenshots') : join(tmpdir(), 'wrs-screenshots');
  mkdirSync(dir, { recursive: true });
  const path = join(dir, `${name}.png`);
  await page.screenshot({ path, fullPage: false });
  return path;
}

export interface BrowserSuite {
  readonly service: ConsoleService;
  readonly browser: Browser;
}

/** What the suites of one test file share; see `shareAcrossSuites`. */
export interface SuiteShare {
  readonly browser: Browser;
  /** The suites' services render with it (a service closing leaves it open). */
  readonly pdfRenderer: PdfRenderer;
}

/**
 * One Chromium and one PDF renderer for the suites declared after it in the same `describe`:
 * started before them, closed after them. Each suite still starts its own service on its own
 * database, and each test opens its own browser context. A service's renderer loads pdfme in a
 * thread of its own on its first render (the demo's template is rendered as it is stored), so a
 * renderer per service would pay that once a suite.
 */
export function shareAcrossSuites(): SuiteShare {
  let browser: Browser | undefined;
  let renderer: PdfRenderer | undefined;
  before(async () => {
    browser = await launchBrowser();
    renderer = createTestRenderer();
  });
  after(async () => {
    await browser?.close();
    await renderer?.close();
  });
  return {
    get browser() {
      if (!browser) throw new Error('the shared browser has not started');
      return browser;
    },
    get pdfRenderer() {
      if (!renderer) throw new Error('the shared renderer has not started');
      return renderer;
    },
  };
}

/**
 * A browser suite, for a test file to declare with what its suites share (see console.test.ts):
 * `describe(title)` with `body` as its body.
 */
export function browserSuiteOf(title: string, body: (kind: DatabaseKind, shared: SuiteShare) => void): (kind: DatabaseKind, shared: SuiteShare) => void {
  return (kind, shared) => describe(title, () => body(kind, shared));
}

/**
 * Starts the service (with the demo company) before the suite's tests and closes it after them;
 * read `suite.service` and `suite.browser` inside the tests. With `options.shared`, the suite
 * uses the browser and PDF renderer several suites of one file share, else a browser of its own.
 */
export function browserSuite(kind: DatabaseKind, options: TestAppOptions & { shared?: SuiteShare } = {}): BrowserSuite {
  const { shared, ...appOptions } = options;
  let service: ConsoleService | undefined;
  let own: Browser | undefined;
  before(async () => {
    service = await startConsoleService(
      kind,
      shared ? { ...appOptions, context: { pdfRenderer: keptOpen(shared.pdfRenderer), ...appOptions.context } } : appOptions,
    );
    if (!shared) own = await launchBrowser();
  });
  after(async () => {
    await own?.close();
    await service?.close();
  });
  return {
    get service() {
      if (!service) throw new Error('the suite has not started');
      return service;
    },
    get browser() {
      const browser = shared?.browser ?? own;
      if (!browser) throw new Error('the suite has not started');
      return browser;
    },
  };
}
