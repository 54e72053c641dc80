// The web pages (web/) are a client of the public API: they import the generated client and
// their own modules, never the service's source (docs/architecture.md).
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { it } from 'node:test';
import { ROOT } from '../helpers/cli-process.js';

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.(ts|tsx)$/.test(name) ? [path] : [];
  });
}

const IMPORT = /(?:import|export)[^'"]*?from\s*['"]([^'"]+)['"]|import\s*\(\s*['"]([^'"]+)['"]\s*\)|import\s+['"]([^'"]+)['"]/g;

it('nothing in web/ imports from src/ (the pages use the API through the generated client)', () => {
  const web = join(ROOT, 'web');
  const files = sourceFiles(web);
  assert.ok(files.length > 10, 'the web sources are found');
  const crossings: string[] = [];
  for (const file of files) {
    for (const match of readFileSync(file, 'utf8').matchAll(IMPORT)) {
      const specifier = match[1] ?? match[2] ?? match[3] ?? '';
      if (!specifier.startsWith('.')) continue;
      const target = relative(ROOT, resolve(dirname(file), specifier));
      if (!target.startsWith('web/') && !target.startsWith('clients/typescript/')) crossings.push(`${relative(ROOT, file)} -> ${specifier}`);
    }
  }
  assert.deepEqual(crossings, []);
});
