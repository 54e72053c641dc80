import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CompiledTypeCache } from '../../src/domain/record-types/compiled-type-cache.js';
import type { CompiledRecordType } from '../../src/domain/record-types/compiled-type.js';

const compiled = (id: string, version = 1) => ({ type: { id, version } }) as unknown as CompiledRecordType;

describe('compiled record type cache', () => {
  it('answers by company, type and version', () => {
    const cache = new CompiledTypeCache();
    const invoice = compiled('invoice', 2);
    cache.set('company-a', invoice);
    assert.equal(cache.get('company-a', 'invoice', 2), invoice);
    assert.equal(cache.get('company-a', 'invoice', 1), undefined);
    assert.equal(cache.get('company-b', 'invoice', 2), undefined);
  });

  it('drops the least recently used first, and keeps an entry used since it aged', () => {
    const cache = new CompiledTypeCache(4);
    for (const id of ['a', 'b', 'c', 'd']) cache.set('company', compiled(id));
    // 'a' has aged past half the cache: this hit makes it the youngest.
    assert.ok(cache.get('company', 'a', 1));
    cache.set('company', compiled('e'));
    assert.equal(cache.size, 4);
    assert.ok(cache.get('company', 'a', 1), 'the entry used is kept');
    assert.equal(cache.get('company', 'b', 1), undefined, 'the oldest unused entry is dropped');
  });

  it('never drops an entry used between every few insertions', () => {
    const cache = new CompiledTypeCache(10);
    const hot = compiled('hot');
    cache.set('company', hot);
    for (let i = 0; i < 500; i++) {
      cache.set('company', compiled(`cold-${i}`));
      assert.equal(cache.get('company', 'hot', 1), hot, `after ${i + 1} insertions`);
    }
    assert.equal(cache.size, 10);
  });

  it('moves a type set again to the young end', () => {
    const cache = new CompiledTypeCache(3);
    for (const id of ['a', 'b', 'c']) cache.set('company', compiled(id));
    cache.set('company', compiled('a'));
    cache.set('company', compiled('d'));
    assert.ok(cache.get('company', 'a', 1));
    assert.equal(cache.get('company', 'b', 1), undefined);
  });
});
