import { readFileSync } from 'node:fs';

let version: string | undefined;

/** This service's version, from its package.json (two directories above src/lib/ and dist/lib/). */
export function serviceVersion(): string {
  version ??= (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;
  return version;
}
