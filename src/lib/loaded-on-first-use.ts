import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

/**
 * A CommonJS package loaded the first time it is used rather than when the process starts, so
 * that what a deployment never uses (`pg` on SQLite, ioredis without Redis, the terminal's
 * pretty printer in production) holds none of its memory. `require`, not `import()`: its
 * callers stay synchronous. `prepare` runs once, before the package is first handed out.
 */
export function loadedOnFirstUse<Module>(specifier: string, prepare?: (module: Module) => void): () => Module {
  let loaded: Module | undefined;
  return () => {
    if (loaded === undefined) {
      const module = require(specifier) as Module;
      prepare?.(module);
      loaded = module;
    }
    return loaded;
  };
}
