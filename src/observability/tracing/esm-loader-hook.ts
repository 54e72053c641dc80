import { register } from 'node:module';

/** The CommonJS packages the service imports from ESM that an instrumentation patches. */
const IMPORTED_FROM_ESM = ['pg', 'pg-pool'];

/**
 * Instrumentations patch a package when it is `require`d. This service is ESM, and an `import`
 * of a CommonJS package such as `pg` reaches the require hook on some Node releases only; the
 * import-in-the-middle loader of @opentelemetry/instrumentation sees the import on all of them.
 * Limited to the packages above: every other module loads as it does with tracing off. Must run
 * before the first import of `pg` (src/cli/main.ts imports the service only after it).
 */
export function registerEsmInstrumentationHook(): void {
  register('@opentelemetry/instrumentation/hook.mjs', import.meta.url, { data: { include: IMPORTED_FROM_ESM } });
}
