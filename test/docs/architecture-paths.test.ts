// docs/architecture.md stays true to the tree: every file or folder it names exists.
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, type Dirent } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { ROOT } from './demo-service.js';

const PAGE = readFileSync(join(ROOT, 'docs/architecture.md'), 'utf8');
const TOP_FOLDERS = ['src', 'test', 'web', 'bench', 'scripts', 'clients', 'docs'];
/** A name that stands for many (`<resource>`, `NNNN_name.ts`, `*.sql`) is a pattern, not a path. */
const PATTERN = /[<>*]|NNNN/;

/** Paths written from the repository's root: in inline code, or as a token of a code block. */
function rootPaths(markdown: string): string[] {
  const tokens = [...markdown.matchAll(/`([^`\n]+)`/g)].map((match) => match[1]!).concat(markdown.split(/\s+/));
  const paths = tokens
    .map((token) => token.replace(/^[(`'"]+|[)`'",.:;]+$/g, ''))
    .filter((token) => TOP_FOLDERS.some((folder) => token.startsWith(`${folder}/`)) && !PATTERN.test(token));
  return [...new Set(paths)];
}

/** The entries of the source tree drawn at the top of the page (`  config/  ...` under `src/`, `web/`). */
function treeEntries(markdown: string): string[] {
  const tree = /## The source tree\s+```\n([\s\S]*?)```/.exec(markdown)?.[1] ?? '';
  const entries: string[] = [];
  let parent = '';
  for (const line of tree.split('\n')) {
    const top = /^(\S+\/)(\s|$)/.exec(line)?.[1];
    if (top) {
      parent = top;
      entries.push(top);
      continue;
    }
    const child = /^ {2}(\S+)(\s|$)/.exec(line)?.[1];
    if (child && /[/.]/.test(child)) entries.push(`${parent}${child}`);
  }
  return entries;
}

describe('docs/architecture.md names only paths that exist', () => {
  it('finds the paths and the tree it checks', () => {
    assert.ok(rootPaths(PAGE).length > 40, `too few paths found: ${rootPaths(PAGE).length}`);
    assert.ok(treeEntries(PAGE).length > 10, `too few tree entries found: ${treeEntries(PAGE).join(', ')}`);
  });

  it('every path written from the root exists', () => {
    const missing = rootPaths(PAGE).filter((path) => !existsSync(join(ROOT, path)));
    assert.deepEqual(missing, []);
  });

  it('every entry of the source tree exists, and every folder of src/ is in it', () => {
    const entries = treeEntries(PAGE);
    assert.deepEqual(
      entries.filter((entry) => !existsSync(join(ROOT, entry))),
      [],
    );
    const srcFolders = listFolders('src');
    assert.deepEqual(
      srcFolders.filter((folder) => !entries.includes(`src/${folder}/`)),
      [],
    );
  });
});

function listFolders(dir: string): string[] {
  return (readdirSync(join(ROOT, dir), { withFileTypes: true }) as Dirent[]).filter((entry) => entry.isDirectory()).map((entry) => entry.name);
}
