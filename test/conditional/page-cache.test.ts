import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { describe, it } from 'node:test';
import type { FastifyRequest } from 'fastify';
import { createPageCache, type PageKey } from '../../src/fast-path/page-cache.js';

const plain = { headers: {} } as FastifyRequest;
const noCache = { headers: { 'cache-control': 'max-age=0, no-cache' } } as unknown as FastifyRequest;

/** A cache whose pages are built by a counter: the body says which build made it. */
function counted(totalBytes = 1000, maxPageBytes = 200) {
  const cache = createPageCache({ totalBytes, maxPageBytes });
  let builds = 0;
  const serve = async (key: PageKey, size = 10, request: FastifyRequest = plain) => {
    const body = await cache.serve(request, key, async () => `${++builds}`.padEnd(size, '.'));
    return body.toString();
  };
  return { cache, serve, builds: () => builds };
}

const key = (etag: string, version = 1, companyId = 'acme'): PageKey => ({ companyId, version, etag });

describe('the repeated-page cache', () => {
  it('builds a page once and serves the same bytes again', async () => {
    const { serve, builds } = counted();
    const first = await serve(key('a'));
    assert.equal(await serve(key('a')), first);
    assert.equal(builds(), 1);
    assert.notEqual(await serve(key('b')), first, 'another tag is another page');
    assert.equal(builds(), 2);
  });

  it('never serves a page to another company, whatever its tag', async () => {
    const { serve, builds } = counted();
    const acme = await serve(key('same', 1, 'acme'));
    const globex = await serve(key('same', 1, 'globex'));
    assert.notEqual(globex, acme);
    assert.equal(builds(), 2);
    assert.equal(await serve(key('same', 1, 'acme')), acme);
    assert.equal(await serve(key('same', 1, 'globex')), globex);
  });

  it('drops a company’s pages once a newer version is seen, and keeps no page of an older one', async () => {
    const { serve, builds } = counted();
    const old = await serve(key('v1-page', 1));
    const other = await serve(key('other-company-page', 1, 'globex'));
    await serve(key('v2-page', 2));
    assert.notEqual(await serve(key('v1-page', 1)), old, 'the version-1 page was dropped');
    assert.equal(builds(), 4);
    await serve(key('v1-page', 1));
    assert.equal(builds(), 5, 'a page built for an older version than the kept ones is not kept');
    assert.equal(await serve(key('other-company-page', 1, 'globex')), other, 'other companies keep theirs');
  });

  it('drops the least recently used pages past the byte bound', async () => {
    const { serve, builds } = counted(100, 50);
    const a = await serve(key('a'), 40);
    const b = await serve(key('b'), 40);
    assert.equal(await serve(key('a'), 40), a, 'a is now the most recently used');
    await serve(key('c'), 40);
    assert.equal(builds(), 3);
    assert.equal(await serve(key('a'), 40), a);
    assert.notEqual(await serve(key('b'), 40), b, 'b was dropped');
    assert.equal(builds(), 4);
  });

  it('counts bytes, not characters, and keeps nothing over the page bound', async () => {
    const { cache } = counted(1000, 10);
    let builds = 0;
    const accented = async () => cache.serve(plain, key('accented'), async () => `${++builds}éééé`);
    await accented();
    await accented();
    assert.equal(builds, 1, '9 bytes: kept');
    const wide = async () => cache.serve(plain, key('wide'), async () => `${++builds}ééééé`);
    await wide();
    await wide();
    assert.equal(builds, 3, '6 characters but 11 bytes: not kept');
  });

  it('keeps only string bodies: a stream is passed through', async () => {
    const { cache } = counted();
    let builds = 0;
    const stream = () =>
      cache.serve(plain, key('s'), async () => {
        builds++;
        return Readable.from(['x']);
      });
    assert.ok((await stream()) instanceof Readable);
    await stream();
    assert.equal(builds, 2);
  });

  it('keeps nothing when its bound is 0', async () => {
    const { serve, builds } = counted(0, 200);
    await serve(key('a'));
    await serve(key('a'));
    assert.equal(builds(), 2);
  });

  it('builds afresh for Cache-Control: no-cache, and keeps what it built', async () => {
    const { serve, builds } = counted();
    const first = await serve(key('a'));
    const fresh = await serve(key('a'), 10, noCache);
    assert.notEqual(fresh, first);
    assert.equal(await serve(key('a')), fresh);
    assert.equal(builds(), 2);
  });
});
