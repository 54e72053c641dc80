import { fork } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker, type ResourceLimits } from 'node:worker_threads';
import type { RenderRequestMessage, RenderThreadMessage } from './render-thread-protocol.js';

/**
 * Where renders run: a worker thread of the service's process, or a child process of its own.
 * A thread is lighter; a process runs wholly at the lower priority, its garbage collector's
 * helper threads included, which a thread cannot: V8's helpers are the whole process's.
 */
export type RenderIsolation = 'thread' | 'process';

export interface RenderHostOptions {
  isolation: RenderIsolation;
  /** The render module's file path. */
  renderModule: string;
  /** The host's scheduling priority, as a nice value (0: the service's). */
  nice: number;
  resourceLimits?: ResourceLimits | undefined;
  onMessage(message: RenderThreadMessage): void;
  onError(error: unknown): void;
  onExit(): void;
}

/** One thread or process that renders; what render-thread.ts drives. */
export interface RenderHost {
  post(message: RenderRequestMessage): void;
  /** Ends the host at once, renders in flight included. */
  terminate(): Promise<unknown>;
}

// Under tsx (tests, `npm run dev`) these modules are TypeScript; in dist/ they are .js.
const EXTENSION = import.meta.url.endsWith('.ts') ? '.ts' : '.js';
const THREAD_MAIN_FILE = fileURLToPath(new URL(`./render-thread-main${EXTENSION}`, import.meta.url));
const PROCESS_MAIN_FILE = fileURLToPath(new URL(`./render-process-main${EXTENSION}`, import.meta.url));
// Resolved here: an evaluated thread or a child resolves a bare name from the working directory,
// which need not be the project (`wrs serve` run from another folder).
const requireHere = createRequire(import.meta.url);
const TSX_REQUIRE_HOOK = EXTENSION === '.ts' ? requireHere.resolve('tsx/cjs') : undefined;
const TSX_LOADER = EXTENSION === '.ts' ? pathToFileURL(requireHere.resolve('tsx')).href : undefined;

/**
 * The thread's first code. In dist/ it imports the ES modules; under tsx (tests, `npm run dev`)
 * the parent's loader hooks do not reach an evaluated thread, so it registers tsx's require
 * hook and requires the TypeScript modules, as piscina did.
 */
const BOOTSTRAP = `
const { workerData } = require('node:worker_threads');
const { pathToFileURL } = require('node:url');
const typescript = workerData.threadMain.endsWith('.ts');
if (typescript) require(workerData.tsxRequireHook);
const load = async (file) => (typescript || file.endsWith('.ts') ? require(file) : import(pathToFileURL(file).href));
Promise.all([load(workerData.threadMain), load(workerData.renderModule)]).then(([main, module]) => main.serveRenders(module));
`;

export function startRenderHost(options: RenderHostOptions): RenderHost {
  return options.isolation === 'process' ? startProcessHost(options) : startThreadHost(options);
}

function startThreadHost(options: RenderHostOptions): RenderHost {
  const worker = new Worker(BOOTSTRAP, {
    eval: true,
    workerData: { threadMain: THREAD_MAIN_FILE, renderModule: options.renderModule, tsxRequireHook: TSX_REQUIRE_HOOK, nice: options.nice },
    ...(options.resourceLimits ? { resourceLimits: options.resourceLimits } : {}),
  });
  worker.on('message', options.onMessage);
  worker.on('error', options.onError);
  worker.on('exit', options.onExit);
  return {
    post: (message) => worker.postMessage(message),
    terminate: () => worker.terminate(),
  };
}

function startProcessHost(options: RenderHostOptions): RenderHost {
  const child = fork(PROCESS_MAIN_FILE, [options.renderModule, String(options.nice)], {
    execArgv: [...(TSX_LOADER ? ['--import', TSX_LOADER] : []), ...heapFlags(options.resourceLimits)],
    serialization: 'advanced',
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  let exited = false;
  child.on('message', (message) => options.onMessage(message as RenderThreadMessage));
  child.on('error', options.onError);
  child.on('exit', (code, signal) => {
    exited = true;
    if (code !== 0 && signal === null) options.onError(new Error(`the render process exited with code ${code}`));
    options.onExit();
  });
  return {
    post: (message) => {
      if (child.connected) child.send(message);
    },
    terminate: () =>
      exited
        ? Promise.resolve()
        : new Promise((resolve) => {
            child.once('exit', resolve);
            child.kill('SIGKILL');
          }),
  };
}

/** A process's V8 flags for a thread's heap limits. */
function heapFlags(limits: ResourceLimits | undefined): string[] {
  const flags: string[] = [];
  // V8's young generation is three semi-spaces.
  if (limits?.maxYoungGenerationSizeMb) flags.push(`--max-semi-space-size=${Math.max(1, Math.ceil(limits.maxYoungGenerationSizeMb / 3))}`);
  if (limits?.maxOldGenerationSizeMb) flags.push(`--max-old-space-size=${limits.maxOldGenerationSizeMb}`);
  return flags;
}
