// The served OpenAPI document passes Redocly's `recommended` rules (redocly.yaml) and Spectral's
// `spectral:oas` (.spectral.yaml) with no error, and the warnings left are exactly those that
// docs/api-reference.md lists with their reasons. Both linters run from node_modules, offline.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { PROJECT_ROOT } from '../helpers/project-root.js';
import { createTestApp } from '../helpers/test-app.js';

/** One finding: `linter rule pointer`, the form docs/api-reference.md lists them in. */
interface Finding {
  linter: 'Redocly' | 'Spectral';
  severity: 'error' | 'warning';
  rule: string;
  pointer: string;
  message: string;
}

const root = PROJECT_ROOT;
const OFFLINE = { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_UPDATE_NOTIFIER: '1' };

async function servedDocument(env: Record<string, string | undefined>): Promise<string> {
  const t = await createTestApp('sqlite', { env: env as Record<string, string> });
  try {
    return (await t.app.inject({ method: 'GET', url: '/v1/openapi.json' })).body;
  } finally {
    await t.close();
  }
}

const pointerOf = (path: (string | number)[]) => `#/${path.map((part) => String(part).replaceAll('~', '~0').replaceAll('/', '~1')).join('/')}`;

function run(args: string[], cwd: string): string {
  const answer = spawnSync(process.execPath, args, { cwd, encoding: 'utf8', env: OFFLINE, maxBuffer: 64 * 1024 * 1024 });
  assert.match(answer.stdout.trimStart(), /^[[{]/, `the linter did not run: ${answer.stderr}`);
  return answer.stdout;
}

/** Lints the document with both linters. Spectral's overrides name files relative to the ruleset, so a copy sits beside the document. */
function lint(document: string): Finding[] {
  const folder = mkdtempSync(join(tmpdir(), 'wrs-openapi-'));
  try {
    writeFileSync(join(folder, 'openapi.json'), document);
    copyFileSync(join(root, '.spectral.yaml'), join(folder, '.spectral.yaml'));
    const redocly = JSON.parse(
      run([join(root, 'node_modules/@redocly/cli/bin/cli.js'), 'lint', '--config', join(root, 'redocly.yaml'), '--format', 'json', 'openapi.json'], folder),
    ) as { problems: { ruleId: string; severity: string; message: string; location: { pointer: string }[] }[] };
    const spectral = JSON.parse(
      run(
        [
          join(root, 'node_modules/@stoplight/spectral-cli/dist/index.js'),
          'lint',
          '--ruleset',
          '.spectral.yaml',
          '--format',
          'json',
          '--quiet',
          'openapi.json',
        ],
        folder,
      ),
    ) as { code: string; severity: number; message: string; path: (string | number)[] }[];
    return [
      ...redocly.problems.map(
        (p): Finding => ({
          linter: 'Redocly',
          severity: p.severity === 'error' ? 'error' : 'warning',
          rule: p.ruleId,
          pointer: p.location[0]?.pointer ?? '#',
          message: p.message,
        }),
      ),
      ...spectral
        .filter((p) => p.severity <= 1)
        .map(
          (p): Finding => ({
            linter: 'Spectral',
            severity: p.severity === 0 ? 'error' : 'warning',
            rule: p.code,
            pointer: pointerOf(p.path),
            message: p.message,
          }),
        ),
    ];
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

const key = (f: Pick<Finding, 'linter' | 'rule' | 'pointer'>) => `${f.linter} ${f.rule} ${f.pointer}`;

/** The warnings docs/api-reference.md keeps: the rows of its table under "What the linters still say". */
function documentedWarnings(): string[] {
  const guide = readFileSync(join(root, 'docs/api-reference.md'), 'utf8');
  const section = guide.split('\n### What the linters still say\n')[1]?.split('\n#')[0];
  assert.ok(section, 'docs/api-reference.md has a section "What the linters still say"');
  const rows = section.split('\n').filter((line) => /^\| (Redocly|Spectral) \|/.test(line));
  return rows.map((row) => {
    const [linter, rule, pointer, reason] = row
      .split('|')
      .slice(1, -1)
      .map((cell) => cell.trim().replace(/^`|`$/g, ''));
    assert.ok(reason && reason.length > 20, `the kept warning ${rule} at ${pointer} says why it stays`);
    return `${linter} ${rule} ${pointer}`;
  });
}

for (const [title, env] of [
  ['with WRS_PUBLIC_URL', { WRS_PUBLIC_URL: 'https://wrs.example.org' }],
  ['without WRS_PUBLIC_URL (relative server)', { WRS_PUBLIC_URL: undefined }],
] as const) {
  test(`the OpenAPI document ${title}: no lint error, and only the warnings docs/api-reference.md lists`, async () => {
    const findings = lint(await servedDocument(env));
    const errors = findings.filter((f) => f.severity === 'error').map((f) => `${key(f)}: ${f.message}`);
    assert.deepEqual(errors, [], `${errors.length} lint errors:\n${errors.join('\n')}`);
    const warnings = findings.map(key).sort();
    assert.deepEqual(warnings, documentedWarnings().sort(), 'the warnings are those docs/api-reference.md lists (add a row with its reason, or fix it)');
  });
}

test('the linters report a missing license (Redocly) and an example that breaks its schema (both) (the lint really runs)', async () => {
  const document = JSON.parse(await servedDocument({})) as {
    info: Record<string, unknown>;
    paths: Record<string, { get: { responses: Record<string, { content: Record<string, { example: unknown }> }> } }>;
  };
  delete document.info.license;
  const liveness = document.paths['/healthz']?.get.responses['200']?.content['application/json'];
  assert.ok(liveness, 'GET /healthz documents a JSON 200');
  liveness.example = { status: 1 };
  const documented = new Set(documentedWarnings());
  const added = lint(JSON.stringify(document))
    .filter((f) => !documented.has(key(f)))
    .map((f) => `${f.linter} ${f.rule}`)
    .sort();
  assert.deepEqual(added, ['Redocly info-license', 'Redocly no-invalid-media-type-examples', 'Spectral oas3-valid-media-example']);
});
