import { readdirSync } from 'node:fs';
import { setPriority } from 'node:os';
import { pathToFileURL } from 'node:url';
import type { RenderRequestMessage, RenderModule, RenderThreadMessage } from './render-thread-protocol.js';
import { serveRenders } from './render-thread-main.js';

/**
 * A render process's entry (render-host.ts forks it with the render module and a nice value).
 * Once warmed up, every thread the process has (V8's and libuv's helpers among them) is lowered;
 * those it starts later inherit the priority. It ends when the service goes.
 */
const [renderModule, niceArgument] = process.argv.slice(2);
if (!renderModule || !process.send) throw new Error('render-process-main runs as a child of the service, given its render module');
process.on('disconnect', () => process.exit(0));

const module = (await import(pathToFileURL(renderModule).href)) as RenderModule;
await serveRenders(module, {
  warmedUp: () => lowerEveryThread(Number(niceArgument ?? 0)),
  send: (message: RenderThreadMessage) => process.send?.(message),
  onRequest: (listener) => process.on('message', (message) => listener(message as RenderRequestMessage)),
});

function lowerEveryThread(nice: number): void {
  if (nice === 0 || process.platform !== 'linux') return;
  for (const task of readdirSync('/proc/self/task')) {
    try {
      setPriority(Number(task), nice);
    } catch {
      // Renders run at the service's priority.
    }
  }
}
