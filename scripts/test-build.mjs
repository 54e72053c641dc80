// Builds the mirror of the checkout that `npm test` runs the test files from (scripts/run-tests.mjs):
// every TypeScript module transpiled ahead of time to JavaScript, beside links to everything else.
// Without it each test file's process would load the TypeScript through tsx's loader hook, which
// transpiles every module it meets again: several hundred modules, most of the app's, in each of
// the ~200 processes of a run. Why and what it saves: docs/development.md, "Tests".
//
// The mirror has the checkout's layout, so that whatever a module reads relative to
// `import.meta.url` (dist/web, docs, fixtures, package.json, node_modules...) resolves the same:
// a folder holding TypeScript modules is a real folder whose modules are transpiled there (foo.ts
// becomes foo.js, with its source map pointing at foo.ts) and whose other entries are links;
// any other entry is one link. Only foo.js is there, not foo.ts: code that runs from the mirror
// picks the JavaScript sibling of a module as it does in dist/ (src/lib/module-thread.ts), and
// code that reads the sources finds them in the checkout (test/helpers/project-root.ts).
import { mkdirSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import { join, relative } from 'node:path';
import { build } from 'esbuild';

/** The mirrors' folder: each run builds its own mirror there, `.test-build/<its pid>/`. */
export const TEST_BUILD_DIR = '.test-build';

/** Never walked: git's, the packages (linked whole), the mirror itself. */
const SKIPPED = new Set(['.git', 'node_modules', TEST_BUILD_DIR]);

const isModule = (name) => /\.(ts|mts|cts)$/.test(name) && !/\.d\.(ts|mts|cts)$/.test(name);

/**
 * Builds this process's mirror of the checkout `root`, `.test-build/<pid>/` (relative to root),
 * and answers its folder and the number of modules transpiled. A mirror of its own: two runs at
 * once in one checkout would otherwise rebuild the files under each other's tests. The mirrors of
 * runs that have ended and not removed theirs are removed first. The modules are transpiled as
 * tsx does it (the same esbuild, target and tsconfig.json), so they behave as they did under tsx.
 */
export async function buildTestMirror(root = process.cwd()) {
  removeEndedRunsMirrors(join(root, TEST_BUILD_DIR));
  const dir = join(TEST_BUILD_DIR, String(process.pid));
  const out = join(root, dir);
  rmSync(out, { recursive: true, force: true });
  const modules = [];
  /** Mirrors the folder `dir` (relative to root) into the mirror. */
  const mirror = (dir) => {
    const entries = readdirSync(join(root, dir), { withFileTypes: true });
    const found = [];
    const links = [];
    const folders = [];
    for (const entry of entries) {
      const path = join(dir, entry.name);
      if (dir === '' && entry.name === TEST_BUILD_DIR) continue;
      if (entry.isDirectory() && !SKIPPED.has(entry.name)) folders.push(path);
      else if (entry.isFile() && isModule(entry.name)) found.push(path);
      else if (entry.name !== '.git') links.push(path);
    }
    const foldersWithModules = folders.filter((folder) => holdsModules(join(root, folder)));
    links.push(...folders.filter((folder) => !foldersWithModules.includes(folder)));
    mkdirSync(join(out, dir), { recursive: true });
    for (const path of links) symlinkSync(relative(join(out, dir), join(root, path)), join(out, path));
    modules.push(...found);
    for (const folder of foldersWithModules) mirror(folder);
  };
  mirror('');
  await build({
    absWorkingDir: root,
    entryPoints: modules,
    outdir: out,
    outbase: '.',
    bundle: false,
    format: 'esm',
    platform: 'node',
    target: `node${process.versions.node}`,
    tsconfig: 'tsconfig.json',
    keepNames: true,
    sourcemap: 'inline',
    sourcesContent: false,
    logLevel: 'warning',
  });
  return { dir, modules: modules.length };
}

function removeEndedRunsMirrors(mirrors) {
  let names;
  try {
    names = readdirSync(mirrors);
  } catch {
    return;
  }
  for (const name of names) {
    if (/^\d+$/.test(name) && isRunning(Number(name))) continue;
    rmSync(join(mirrors, name), { recursive: true, force: true });
  }
}

function isRunning(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === 'EPERM';
  }
}

/** Whether a folder holds modules at any depth; each folder is read once a run (mirror asks again at every level). */
const holdingModules = new Map();
function holdsModules(dir) {
  let holds = holdingModules.get(dir);
  if (holds === undefined) {
    holds = readdirSync(dir, { withFileTypes: true }).some((entry) =>
      entry.isDirectory() ? !SKIPPED.has(entry.name) && holdsModules(join(dir, entry.name)) : entry.isFile() && isModule(entry.name),
    );
    holdingModules.set(dir, holds);
  }
  return holds;
}
