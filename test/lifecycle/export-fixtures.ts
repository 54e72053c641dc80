import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import type { ImportReport } from '../../src/domain/company-export/company-importer.js';
import type { TestApp } from '../helpers/test-app.js';

/** A company's export through the operator route: the raw text, checked to be 200 NDJSON. */
export async function exportOf(t: TestApp, company: string): Promise<string> {
  const response = await t.admin({ url: `/admin/v1/companies/${company}/export` });
  assert.equal(response.statusCode, 200, response.body);
  assert.match(String(response.headers['content-type']), /^application\/x-ndjson/);
  return response.body;
}

export function linesOf(text: string): string[] {
  assert.ok(text.endsWith('\n'), 'an export ends with a newline');
  return text.slice(0, -1).split('\n');
}

export function importText(t: TestApp, text: string | Buffer): Promise<ImportReport> {
  const bytes = Buffer.from(text);
  // In small chunks, so that lines cross chunk boundaries as they do when read from a file.
  return t.ctx.companyImporter.importFile(() => Readable.from(chunksOf(bytes, 977)));
}

function* chunksOf(bytes: Buffer, size: number): Generator<Buffer> {
  for (let start = 0; start < bytes.length; start += size) yield bytes.subarray(start, start + size);
}

/**
 * Two exports of the same data: every item line byte for byte, the header but for its time and
 * database kind, the trailer's counts (its checksum covers the header, so it differs with it).
 */
export function assertSameExport(first: string, second: string): void {
  const a = linesOf(first);
  const b = linesOf(second);
  assert.equal(b.length, a.length, 'as many lines');
  const headerOf = (line: string) => {
    const { exported_at: _at, database: _database, ...rest } = JSON.parse(line) as Record<string, unknown>;
    return rest;
  };
  assert.deepEqual(headerOf(b[0]!), headerOf(a[0]!));
  for (let i = 1; i < a.length - 1; i++) assert.equal(b[i], a[i], `line ${i + 1}`);
  assert.deepEqual(JSON.parse(b.at(-1)!).counts, JSON.parse(a.at(-1)!).counts);
}
