// Where the service's CPU went in each phase of a bench run made with `--profile <dir>`:
//   node --import tsx bench/profile-phases.ts <dir> [--top 12] [--phase feed-follow]
// Reads the service's main-thread profile (--cpu-prof) and the phases' times the bench wrote, and
// prints, per phase, how long the thread was busy and the functions that spent most of it.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { PhaseSpan } from './lib/phase.js';
import { phaseProfiles, type CpuProfile } from './lib/cpu-profile.js';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { top: { type: 'string', default: '12' }, phase: { type: 'string' } },
});
const dir = positionals[0];
if (!dir) throw new Error('usage: bench/profile-phases.ts <dir written by npm run bench -- --profile <dir>> [--top N] [--phase name]');
const { servicePid, phases } = JSON.parse(readFileSync(join(dir, 'phases.json'), 'utf8')) as { servicePid: number; phases: PhaseSpan[] };
const mainThread = readdirSync(dir).find((name) => name.endsWith('.cpuprofile') && name.includes(`.${servicePid}.0.`));
if (!mainThread) throw new Error(`no main-thread profile of the service (pid ${servicePid}) in ${dir}`);
const profile = JSON.parse(readFileSync(join(dir, mainThread), 'utf8')) as CpuProfile;
const top = Number(values.top);
if (!Number.isInteger(top) || top < 1) throw new Error(`--top is a whole number of functions, at least 1 (got ${values.top})`);

for (const summary of phaseProfiles(profile, phases)) {
  if (values.phase && summary.name !== values.phase) continue;
  const seconds = (micros: number) => (micros / 1e6).toFixed(2);
  console.log(
    `\n## ${summary.name}: ${seconds(summary.wallMicros)} s, busy ${seconds(summary.busyMicros)} s (${percent(summary.busyMicros, summary.wallMicros)}), garbage collection ${percent(summary.gcMicros, summary.busyMicros)} of busy`,
  );
  for (const fn of summary.functions.slice(0, top)) {
    console.log(`  ${percent(fn.selfMicros, summary.busyMicros).padStart(6)}  ${fn.name}`);
  }
}

function percent(part: number, whole: number): string {
  return whole > 0 ? `${((100 * part) / whole).toFixed(1)}%` : '-';
}
