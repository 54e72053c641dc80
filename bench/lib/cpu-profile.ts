import type { PhaseSpan } from './phase.js';

/** The parts of a V8 CPU profile (`node --cpu-prof`) read here; times in microseconds. */
export interface CpuProfile {
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number } }[];
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}

export interface PhaseProfile {
  name: string;
  wallMicros: number;
  /**
   * Sampled time not idle: running JavaScript, native code called from it (a system call it waits
   * in included: V8 cannot tell it from running; `perf` can), or collecting garbage.
   */
  busyMicros: number;
  gcMicros: number;
  /** Self time per function, most first (`name file:line`). */
  functions: { name: string; selfMicros: number }[];
}

const IDLE = '(idle)';
const GC = '(garbage collector)';

/**
 * Splits a profile's samples by phase (the profile and the phases share the monotonic clock) and
 * adds up each phase's self time per function. A sample lasts until the next one.
 */
export function phaseProfiles(profile: CpuProfile, phases: readonly PhaseSpan[]): PhaseProfile[] {
  const labelOf = new Map(profile.nodes.map((node) => [node.id, label(node.callFrame)]));
  const sampleTimes: number[] = [];
  let at = profile.startTime;
  for (const delta of profile.timeDeltas) sampleTimes.push((at += delta));
  return phases.map((phase) => {
    const self = new Map<string, number>();
    let wall = 0;
    for (let i = 0; i < profile.samples.length - 1; i++) {
      const start = sampleTimes[i]!;
      if (start < phase.startMicros || start >= phase.endMicros) continue;
      const duration = sampleTimes[i + 1]! - start;
      const name = labelOf.get(profile.samples[i]!) ?? '(unknown)';
      self.set(name, (self.get(name) ?? 0) + duration);
      wall += duration;
    }
    const idle = self.get(IDLE) ?? 0;
    self.delete(IDLE);
    const functions = [...self].map(([name, selfMicros]) => ({ name, selfMicros })).sort((a, b) => b.selfMicros - a.selfMicros);
    return { name: phase.name, wallMicros: wall, busyMicros: wall - idle, gcMicros: self.get(GC) ?? 0, functions };
  });
}

function label(frame: CpuProfile['nodes'][number]['callFrame']): string {
  if (!frame.url) return frame.functionName || '(anonymous)';
  // Node's own modules by their whole name; a file by its folder and name.
  const file = frame.url.startsWith('node:') ? frame.url : frame.url.split('/').slice(-2).join('/');
  return `${frame.functionName || '(anonymous)'} ${file}:${frame.lineNumber + 1}`;
}
