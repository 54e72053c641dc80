import { fork } from 'node:child_process';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import type { ResourceLimits } from 'node:worker_threads';
import { siblingModule, startModuleThread } from '../../lib/module-thread.js';
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

const THREAD_MAIN_FILE = siblingModule(import.meta.url, 'render-thread-main');
const PROCESS_MAIN_FILE = siblingModule(import.meta.url, 'render-process-main');
// Resolved here: a child resolves a bare name from the working directory, which need not be the
// project (`wrs serve` run from another folder).
const TSX_LOADER = import.meta.url.endsWith('.ts') ? pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href : undefined;

export function startRenderHost(options: RenderHostOptions): RenderHost {
  return options.isolation === 'process' ? startProcessHost(options) : startThreadHost(options);
}

function startThreadHost(options: RenderHostOptions): RenderHost {
  const worker = startModuleThread(THREAD_MAIN_FILE, 'serveRenders', [options.renderModule], {
    workerData: { nice: options.nice },
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
