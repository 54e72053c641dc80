// The served OpenAPI document passes Redocly's recommended rules (redocly.yaml), warnings included.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';
import { createTestApp } from '../helpers/test-app.js';

interface LintProblem {
  ruleId: string;
  severity: string;
  message: string;
  location: { pointer: string }[];
}

const root = fileURLToPath(new URL('../../', import.meta.url));

async function servedDocument(env: Record<string, string>): Promise<string> {
  const t = await createTestApp('sqlite', { env });
  try {
    return (await t.app.inject({ method: 'GET', url: '/v1/openapi.json' })).body;
  } finally {
    await t.close();
  }
}

function lint(document: string): LintProblem[] {
  const folder = mkdtempSync(join(tmpdir(), 'wrs-openapi-'));
  try {
    const file = join(folder, 'openapi.json');
    writeFileSync(file, document);
    const run = spawnSync(process.execPath, ['node_modules/@redocly/cli/bin/cli.js', 'lint', '--config', 'redocly.yaml', '--format', 'json', file], {
      cwd: root,
      encoding: 'utf8',
      env: { ...process.env, REDOCLY_TELEMETRY: 'off' },
      maxBuffer: 64 * 1024 * 1024,
    });
    assert.ok(run.stdout.trimStart().startsWith('{'), `redocly did not run: ${run.stderr}`);
    return (JSON.parse(run.stdout) as { problems: LintProblem[] }).problems;
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

const describeProblem = (p: LintProblem) => `${p.severity} ${p.ruleId} at ${p.location.map((l) => l.pointer).join(', ')}: ${p.message}`;

for (const [title, env] of [
  ['with WRS_PUBLIC_URL', { WRS_PUBLIC_URL: 'https://wrs.example.org' }],
  ['without WRS_PUBLIC_URL (relative server)', { WRS_PUBLIC_URL: undefined as unknown as string }],
] as const) {
  test(`the OpenAPI document ${title} passes the Redocly lint with no error and no warning`, async () => {
    const problems = lint(await servedDocument(env)).map(describeProblem);
    assert.deepEqual(problems, [], `${problems.length} lint problems:\n${problems.join('\n')}`);
  });
}

test('the lint reports a missing license and an example that breaks its schema (the lint really runs)', async () => {
  const document = JSON.parse(await servedDocument({})) as {
    info: Record<string, unknown>;
    paths: Record<string, { get: { responses: Record<string, { content: Record<string, { example: unknown }> }> } }>;
  };
  delete document.info.license;
  const liveness = document.paths['/healthz']?.get.responses['200']?.content['application/json'];
  assert.ok(liveness, 'GET /healthz documents a JSON 200');
  liveness.example = { status: 1 };
  assert.deepEqual(
    lint(JSON.stringify(document))
      .map((p) => p.ruleId)
      .sort(),
    ['info-license', 'no-invalid-media-type-examples'],
  );
});
