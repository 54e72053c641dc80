import { createRequire } from 'node:module';

const SCHED_IDLE = 5;

/**
 * Puts the calling thread under Linux's SCHED_IDLE policy: it runs only on CPU time no other
 * thread of the machine wants, and any other thread that wakes takes the CPU from it at once.
 * Lowering the nice value alone leaves a thread a share of a contended CPU and keeps woken
 * threads waiting for the scheduler's next tick. Answers whether the policy was set: false
 * elsewhere than Linux on glibc, where koffi has no build, or where the call is refused.
 *
 * Node has no binding for `sched_setscheduler`; koffi (already loaded for `malloc_trim`) calls
 * glibc. Pid 0 means the calling thread, since a Linux thread is a task of its own.
 */
export function scheduleCallingThreadWhenIdle(): boolean {
  if (process.platform !== 'linux') return false;
  try {
    const koffi = createRequire(import.meta.url)('koffi') as typeof import('koffi');
    // struct sched_param is a single int (the priority, 0 for SCHED_IDLE).
    const setScheduler = koffi.load('libc.so.6').func('int sched_setscheduler(int pid, int policy, const int *param)') as (
      pid: number,
      policy: number,
      param: number[],
    ) => number;
    return setScheduler(0, SCHED_IDLE, [0]) === 0;
  } catch {
    return false;
  }
}
