// Migrations are frozen history: what a migration does must not change when the live code
// changes, so no file in src/storage/migrations/ imports from outside that folder. What a
// migration needs of the code of its day is copied into migrations/frozen/ (docs/architecture.md).
import assert from 'node:assert/strict';
import { builtinModules } from 'node:module';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { it } from 'node:test';
import ts from 'typescript';
import { ROOT } from '../helpers/cli-process.js';

const MIGRATIONS = join(ROOT, 'src', 'storage', 'migrations');
const PACKAGES = new Set(['kysely']);

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.(ts|mts|js|mjs)$/.test(name) ? [path] : [];
  });
}

/** Every module a file names: static imports and re-exports, `import()` and `require()`, type-only ones too. */
function importsOf(file: string): string[] {
  return ts.preProcessFile(readFileSync(file, 'utf8'), true, true).importedFiles.map((imported) => imported.fileName);
}

function reachesOutside(file: string, specifier: string): boolean {
  if (specifier.startsWith('node:') || builtinModules.includes(specifier)) return false;
  if (PACKAGES.has(specifier)) return false;
  if (!specifier.startsWith('.')) return true;
  const target = resolve(dirname(file), specifier);
  return !target.startsWith(MIGRATIONS + sep);
}

it('no migration imports from outside src/storage/migrations/ (only kysely and node builtins)', () => {
  const files = sourceFiles(MIGRATIONS);
  assert.ok(files.filter((file) => /\/\d{4}_[^/]+\.ts$/.test(file)).length >= 18, 'the numbered migrations are found');
  const crossings: string[] = [];
  for (const file of files) {
    for (const specifier of importsOf(file)) {
      if (reachesOutside(file, specifier)) crossings.push(`${relative(ROOT, file)} imports ${specifier}`);
    }
  }
  assert.deepEqual(crossings, [], `migrations must carry their own copy of what they need (src/storage/migrations/frozen/):\n${crossings.join('\n')}`);
});

it('the import check sees every form of import', () => {
  const file = join(MIGRATIONS, '9999_example.ts');
  const text = [
    "import { sql } from 'kysely';",
    "import type { X } from '../tables/events.js';",
    "export { y } from '../../domain/events/event-json.js';",
    "import { z } from './frozen/dialect.js';",
    "const lazy = await import('../dialect.js');",
    "import 'pg';",
    "import fs from 'node:fs';",
  ].join('\n');
  const found = ts.preProcessFile(text, true, true).importedFiles.map((imported) => imported.fileName);
  assert.deepEqual(
    found.filter((specifier) => reachesOutside(file, specifier)),
    ['../tables/events.js', '../../domain/events/event-json.js', '../dialect.js', 'pg'],
  );
});
