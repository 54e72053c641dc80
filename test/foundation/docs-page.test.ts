import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { describeEachDatabase } from '../helpers/databases.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

const CSP_KEYWORDS = new Set(["'self'", "'none'", "'unsafe-inline'", 'data:']);

/** The source values of a Content-Security-Policy, e.g. `'self'`, `data:`, `https://cdn.example`. */
function cspSources(header: string): string[] {
  return header
    .split(';')
    .flatMap((directive) => directive.trim().split(/\s+/).slice(1))
    .filter(Boolean);
}

describeEachDatabase('docs page', (kind) => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp(kind);
  });
  after(() => t.close());

  it('answers /docs with HTML whose every script, style and icon is served by the service', async () => {
    const page = await t.app.inject({ method: 'GET', url: '/docs' });
    assert.equal(page.statusCode, 200);
    assert.match(String(page.headers['content-type']), /^text\/html/);
    const references = [...page.body.matchAll(/(?:src|href)="([^"]*)"/g)].map((match) => match[1]!);
    assert.ok(references.some((url) => url.endsWith('.js')) && references.some((url) => url.endsWith('.css')), page.body);
    for (const url of references) {
      assert.match(url, /^\/[^/]/, `${url} is not a path on the service`);
      const asset = await t.app.inject({ method: 'GET', url });
      assert.equal(asset.statusCode, 200, url);
      if (url.endsWith('.css')) {
        const external = [...asset.body.matchAll(/url\(\s*["']?([^"')]*)/g)].map((m) => m[1]!).filter((u) => !u.startsWith('data:'));
        assert.deepEqual(external, [], `${url} loads from elsewhere`);
      }
    }
  });

  it('gives the docs page a CSP of the service only and leaves the API its own strict one', async () => {
    for (const url of ['/docs', '/docs/static/swagger-ui-bundle.js', '/docs/static/swagger-initializer.js']) {
      const answer = await t.app.inject({ method: 'GET', url });
      const csp = String(answer.headers['content-security-policy']);
      assert.match(csp, /default-src 'self'/, url);
      assert.deepEqual(
        cspSources(csp).filter((source) => !CSP_KEYWORDS.has(source)),
        [],
        `${url}: ${csp}`,
      );
    }
    const api = await t.app.inject({ method: 'GET', url: '/healthz' });
    assert.equal(api.headers['content-security-policy'], "default-src 'none'; frame-ancestors 'none'");
  });

  it('points the page at /v1/openapi.json and asks no outside validator', async () => {
    const initializer = await t.app.inject({ method: 'GET', url: '/docs/static/swagger-initializer.js' });
    assert.equal(initializer.statusCode, 200);
    assert.match(initializer.body, /validatorUrl: null/);
    assert.match(initializer.body, /url: resolveUrl\('\.\/json'\)/);
    const documentLink = await t.app.inject({ method: 'GET', url: '/docs/json' });
    assert.equal(documentLink.statusCode, 302);
    assert.equal(documentLink.headers.location, '/v1/openapi.json');
    const document = await t.app.inject({ method: 'GET', url: documentLink.headers.location });
    assert.equal(document.statusCode, 200);
    assert.equal(document.json().openapi, '3.1.0');
  });

  it('redirects / to the web console (built by npm ci), and none of the pages is in the OpenAPI document', async () => {
    const root = await t.app.inject({ method: 'GET', url: '/' });
    assert.equal(root.statusCode, 302);
    assert.equal(root.headers.location, '/app/');
    const document = (await t.app.inject({ method: 'GET', url: '/v1/openapi.json' })).json() as { paths: Record<string, unknown> };
    const listed = Object.keys(document.paths).filter((path) => path === '/' || /^\/(docs|app|forms|assets)\b/.test(path));
    assert.deepEqual(listed, []);
  });
});
