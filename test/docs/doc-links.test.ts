// The README and the guides link only inside the repository, and every link lands: the file
// exists and, for a link to a heading, the heading does (anchors as GitHub makes them).
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { describe, it } from 'node:test';
import { docFiles } from './doc-blocks.js';
import { ROOT } from './demo-service.js';

/** The text outside fenced code blocks and inline code, line numbers kept. */
function prose(markdown: string): string[] {
  let fence: string | undefined;
  return markdown.split('\n').map((line) => {
    const marker = /^ {0,3}(`{3,}|~{3,})/.exec(line)?.[1];
    if (marker && (!fence || (marker[0] === fence[0] && marker.length >= fence.length))) {
      fence = fence ? undefined : marker;
      return '';
    }
    return fence ? '' : line.replace(/`[^`]*`/g, '');
  });
}

/** GitHub's heading anchors: lower case, punctuation dropped, blanks to hyphens, repeats numbered. */
function anchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const found = new Set<string>();
  for (const line of prose(markdown.replace(/`([^`]*)`/g, '$1'))) {
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line)?.[1];
    if (heading === undefined) continue;
    const base = heading
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    found.add(count ? `${base}-${count}` : base);
  }
  return found;
}

const files = docFiles(ROOT).map((file) => ({ file, text: readFileSync(join(ROOT, file), 'utf8') }));

describe('docs: links', () => {
  it('point inside the repository, at files and headings that exist', () => {
    const problems: string[] = [];
    for (const { file, text } of files) {
      prose(text).forEach((line, index) => {
        const where = `${file}:${index + 1}`;
        for (const url of line.matchAll(/\bhttps?:\/\/[^\s)>\]]+/g)) problems.push(`${where}: a link outside the repository: ${url[0]}`);
        for (const [, target] of line.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
          if (/^[a-z]+:/i.test(target!)) continue; // reported above when http(s); mailto and the like are not used
          const [path, anchor] = target!.split('#') as [string, string | undefined];
          // A link starting with / is relative to the repository's root, as GitHub reads it.
          const from = path.startsWith('/') ? '.' : dirname(file);
          const resolved = path ? normalize(join(from, decodeURIComponent(path))) : file;
          if (resolved.startsWith('..')) {
            problems.push(`${where}: ${target} leaves the repository`);
            continue;
          }
          if (!existsSync(join(ROOT, resolved))) {
            problems.push(`${where}: ${target} does not exist`);
            continue;
          }
          if (anchor && resolved.endsWith('.md') && !anchors(readFileSync(join(ROOT, resolved), 'utf8')).has(anchor)) {
            problems.push(`${where}: ${target}: no heading makes #${anchor}`);
          }
        }
      });
    }
    assert.deepEqual(problems, []);
  });

  it('makes anchors as GitHub does, and reads no code (self-check)', () => {
    assert.ok(anchors('## Links and the Host header\n## The `wrs` command\n## Record types: definitions').has('links-and-the-host-header'));
    assert.ok(anchors('## The `wrs` command').has('the-wrs-command'));
    assert.ok(anchors('## Record types: definitions').has('record-types-definitions'));
    assert.deepEqual(prose('see `http://x`\n```sh\ncurl http://127.0.0.1\n```\nhttps://example.com'), ['see ', '', '', '', 'https://example.com']);
  });
});
