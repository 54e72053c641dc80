import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { phaseProfiles, type CpuProfile } from '../../bench/lib/cpu-profile.js';

const frame = (functionName: string, url = '', lineNumber = -1) => ({ functionName, url, lineNumber });

// Samples every 1,000 µs from 10,000: idle, work, work, GC | idle, idle, other, (last sample: no duration).
const profile: CpuProfile = {
  nodes: [
    { id: 1, callFrame: frame('(idle)') },
    { id: 2, callFrame: frame('work', 'file:///srv/app/dist/storage/rows.js', 9) },
    { id: 3, callFrame: frame('(garbage collector)') },
    { id: 4, callFrame: frame('', 'node:internal/streams/readable', 0) },
  ],
  startTime: 9_000,
  samples: [1, 2, 2, 3, 1, 1, 4, 2],
  timeDeltas: [1_000, 1_000, 1_000, 1_000, 1_000, 1_000, 1_000, 1_000],
};

describe('CPU profile per bench phase', () => {
  it('adds up each phase’s busy time, garbage collection and self time per function', () => {
    const [first, second] = phaseProfiles(profile, [
      { name: 'first', startMicros: 10_000, endMicros: 14_000 },
      { name: 'second', startMicros: 14_000, endMicros: 20_000 },
    ]);
    assert.deepEqual(first, {
      name: 'first',
      wallMicros: 4_000,
      busyMicros: 3_000,
      gcMicros: 1_000,
      functions: [
        { name: 'work storage/rows.js:10', selfMicros: 2_000 },
        { name: '(garbage collector)', selfMicros: 1_000 },
      ],
    });
    assert.deepEqual(second, {
      name: 'second',
      wallMicros: 3_000,
      busyMicros: 1_000,
      gcMicros: 0,
      functions: [{ name: '(anonymous) node:internal/streams/readable:1', selfMicros: 1_000 }],
    });
  });

  it('gives a phase outside the profile no time', () => {
    const [outside] = phaseProfiles(profile, [{ name: 'before', startMicros: 0, endMicros: 9_500 }]);
    assert.equal(outside!.wallMicros, 0);
    assert.equal(outside!.busyMicros, 0);
    assert.deepEqual(outside!.functions, []);
  });
});
