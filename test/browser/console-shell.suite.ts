import assert from 'node:assert/strict';
import { it } from 'node:test';
import { assertAccessible, assertNoPageErrors, newPage, signIn, browserSuite, browserSuiteOf } from './harness.js';

export const consoleShellSuite = browserSuiteOf('web console: sign-in and the shell', (kind, shared) => {
  const suite = browserSuite(kind, { shared });

  it('GET / leads to the console, which asks for a token and keeps it in sessionStorage only', async () => {
    const { context, page, errors } = await newPage(suite.browser);
    await page.goto(`${suite.service.baseUrl}/`);
    assert.equal(new URL(page.url()).pathname, '/app/');
    await assertAccessible(page, 'sign-in page');
    await signIn(page, suite.service.baseUrl, await suite.service.demoToken());
    assert.match(await page.locator('header').innerText(), /demo-company/);
    // Strings run in the page: the tests compile without the DOM library.
    const stored = await page.evaluate('({ session: Object.keys(sessionStorage).sort(), local: Object.keys(localStorage), cookie: document.cookie })');
    // The token, and the list a record page leads back to (the board here).
    assert.deepEqual(stored, { session: ['wrs.console.list', 'wrs.console.token'], local: [], cookie: '' });
    assert.ok(!page.url().includes('eyJ'), 'the token never appears in the URL');
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByLabel('Bearer token').waitFor();
    assert.deepEqual(await page.evaluate('Object.keys(sessionStorage)'), []);
    assertNoPageErrors(errors);
    await context.close();
  });

  it('a token the service refuses, or no JWT at all, is explained on the sign-in page', async () => {
    const { context, page } = await newPage(suite.browser);
    await page.goto(`${suite.service.baseUrl}/app/`);
    await page.getByLabel('Bearer token').fill('not a token');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('alert').filter({ hasText: 'not a token the console takes' }).waitFor();
    const forged = (await suite.service.demoToken()).replace(/\.[^.]+$/, '.c2lnbmF0dXJl');
    await page.getByLabel('Bearer token').fill(forged);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('alert').filter({ hasText: 'does not trust this token’s signature' }).waitFor();
    await context.close();
  });

  it('pages carry a strict Content-Security-Policy and load nothing from another origin; assets are cached for a year', async () => {
    const { context, page } = await newPage(suite.browser);
    const origins = new Set<string>();
    page.on('request', (request) => origins.add(new URL(request.url()).origin));
    const answer = await page.goto(`${suite.service.baseUrl}/app/`);
    const csp = answer!.headers()['content-security-policy'] ?? '';
    assert.match(csp, /default-src 'self'/);
    assert.match(csp, /script-src 'self'(;|$)/);
    assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval/);
    assert.equal(answer!.headers()['cache-control'], 'no-cache');
    const script = await page.locator('script[type=module]').getAttribute('src');
    const asset = await page.request.get(`${suite.service.baseUrl}${script}`);
    assert.equal(asset.headers()['cache-control'], 'public, max-age=31536000, immutable');
    assert.deepEqual([...origins], [suite.service.baseUrl]);
    await context.close();
  });
});
