// The committed client types are what the generator makes of the app's OpenAPI document today.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { it } from 'node:test';
import { relative } from 'node:path';
import { renderClientFiles } from '../../scripts/client/client-schema.js';
import { buildServedOpenApiDocument } from '../../scripts/openapi/served-document.js';
import { PROJECT_ROOT } from '../helpers/project-root.js';

/** Where two texts first differ, as a line number and the two lines. */
function firstDifference(committed: string, generated: string): string {
  const [a, b] = [committed.split('\n'), generated.split('\n')];
  const line = a.findIndex((text, index) => text !== b[index]);
  const at = line === -1 ? a.length : line;
  return `line ${at + 1}:\n  committed: ${a[at] ?? '(end of file)'}\n  generated: ${b[at] ?? '(end of file)'}`;
}

const root = PROJECT_ROOT;

it('the committed clients/typescript/src/schema.ts and named-schemas.ts match the OpenAPI document the app serves', async () => {
  const files = await renderClientFiles(await buildServedOpenApiDocument());
  assert.equal(files.size, 2);
  for (const [file, generated] of files) {
    const committed = await readFile(file, 'utf8');
    assert.ok(
      committed === generated,
      `${relative(root, file)} is stale: run \`npm run client:generate\` and commit it. First difference at ${firstDifference(committed, generated)}`,
    );
  }
});
