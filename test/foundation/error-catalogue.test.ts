import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, it } from 'node:test';
import { ERROR_STATUS, SECOND_STATUS, type ErrorCode } from '../../src/errors/app-error.js';

const CATALOGUE_DIR = 'src/errors';

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return name.endsWith('.ts') ? [path] : [];
  });
}

const sources = sourceFiles('src').map((path) => ({ path: relative('.', path), text: readFileSync(path, 'utf8') }));
const inCatalogue = (path: string) => path.startsWith(`${CATALOGUE_DIR}/`);

function allowedStatuses(code: string): number[] {
  const second = SECOND_STATUS[code as ErrorCode];
  return [ERROR_STATUS[code as ErrorCode], ...(second ? [second.status] : [])];
}

describe('the error catalogue', () => {
  it('is the only place that builds an AppError', () => {
    const outside = sources
      .filter(({ path }) => !inCatalogue(path))
      .flatMap(({ path, text }) => text.split('\n').flatMap((line, i) => (line.includes('new AppError(') ? [`${path}:${i + 1}`] : [])));
    assert.deepEqual(outside, [], `use a constructor of ${CATALOGUE_DIR}/ instead`);
  });

  it('builds each code with its status, or its documented second status', () => {
    const built = sources
      .filter(({ path }) => inCatalogue(path))
      .flatMap(({ path, text }) =>
        [...text.matchAll(/new AppError\(([^,]*),([^,]*),/g)].map((match) => ({ path, status: match[1]!.trim(), code: match[2]!.trim() })),
      );
    assert.ok(built.length > 10);
    for (const { path, status, code } of built) {
      assert.match(status, /^\d{3}$/, `${path}: the status must be written as a number beside its code`);
      assert.match(code, /^'[a-z_]+'$/, `${path}: the code must be written as a literal beside its status`);
      const name = code.slice(1, -1);
      assert.ok(name in ERROR_STATUS, `${path}: '${name}' is not in ERROR_STATUS`);
      assert.ok(allowedStatuses(name).includes(Number(status)), `${path}: '${name}' with ${status}; its status is ${allowedStatuses(name).join(' or ')}`);
    }
  });

  it('gives each second status a reason, and a status other than the first', () => {
    for (const [code, second] of Object.entries(SECOND_STATUS)) {
      assert.notEqual(second!.status, ERROR_STATUS[code as ErrorCode], code);
      assert.ok(second!.reason.length > 20, `${code}: say why the code has a second status`);
    }
  });

  it('agrees with the table of the errors guide (docs/errors.md)', () => {
    const guide = readFileSync('docs/errors.md', 'utf8');
    const rows = [...guide.matchAll(/^\| (\d{3}) \| `([a-z_]+)` \|/gm)].map((match) => ({ status: Number(match[1]), code: match[2]! }));
    assert.ok(rows.length > 10);
    for (const { status, code } of rows) {
      assert.ok(code in ERROR_STATUS, `docs/errors.md names '${code}', which the catalogue does not have`);
      assert.ok(allowedStatuses(code).includes(status), `docs/errors.md: '${code}' with ${status}; the catalogue says ${allowedStatuses(code).join(' or ')}`);
    }
    const documented = new Set(rows.map(({ code }) => code));
    assert.deepEqual(
      Object.keys(ERROR_STATUS).filter((code) => !documented.has(code)),
      [],
    );
  });
});
