import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { Worker, type WorkerOptions } from 'node:worker_threads';

// Resolved here: an evaluated thread resolves a bare name from the working directory, which need
// not be the project (`wrs serve` run from another folder). Only under tsx: dist/ runs without it.
const tsxRequireHook = (main: string) => (main.endsWith('.ts') ? createRequire(import.meta.url).resolve('tsx/cjs') : undefined);

/**
 * The file of a module beside the caller's (`import.meta.url`): TypeScript under tsx (tests,
 * `npm run dev`), JavaScript in dist/.
 */
export function siblingModule(callerUrl: string, name: string): string {
  return fileURLToPath(new URL(`./${name}${callerUrl.endsWith('.ts') ? '.ts' : '.js'}`, callerUrl));
}

/**
 * The thread's first code. In dist/ it imports the ES modules; under tsx the parent's loader
 * hooks do not reach an evaluated thread, so it registers tsx's require hook and requires the
 * TypeScript modules (as piscina did).
 */
const BOOTSTRAP = `
const { workerData } = require('node:worker_threads');
const { pathToFileURL } = require('node:url');
const { main, entry, modules, tsxRequireHook } = workerData.boot;
const typescript = main.endsWith('.ts');
if (typescript) require(tsxRequireHook);
const load = async (file) => (typescript || file.endsWith('.ts') ? require(file) : import(pathToFileURL(file).href));
Promise.all([main, ...modules].map(load)).then(([loaded, ...args]) => loaded[entry](...args));
`;

/**
 * A worker thread that loads `main` (a module file, siblingModule) and calls its export `entry`
 * with the modules of the files in `modules` (loaded the same way) as arguments; the thread
 * reads `options.workerData` as given.
 */
export function startModuleThread(main: string, entry: string, modules: readonly string[], options: WorkerOptions = {}): Worker {
  const boot = { main, entry, modules, tsxRequireHook: tsxRequireHook(main) };
  return new Worker(BOOTSTRAP, { ...options, eval: true, workerData: { ...(options.workerData as object | undefined), boot } });
}
