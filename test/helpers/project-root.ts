import { realpathSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The checkout's folder, with a trailing slash: where the TypeScript sources, dist/ and the tools
 * are. `npm test` runs the tests from a transpiled mirror of the checkout (.test-build/<pid>/, built by
 * scripts/test-build.mjs), which holds JavaScript in place of the sources and links to the rest;
 * its package.json is a link to the checkout's, so this finds the checkout from either.
 */
export const PROJECT_ROOT = `${dirname(realpathSync(fileURLToPath(new URL('../../package.json', import.meta.url))))}/`;

/**
 * The `node` flags a child process needs to run the modules beside the caller's (`import.meta.url`;
 * their files from siblingModule): tsx's loader for TypeScript, run directly with tsx; source maps
 * for JavaScript, run from the transpiled mirror, so that stack traces name the .ts lines.
 */
export function childNodeFlags(callerUrl: string): string[] {
  return callerUrl.endsWith('.ts') ? ['--import', createRequire(import.meta.url).resolve('tsx')] : ['--enable-source-maps'];
}
