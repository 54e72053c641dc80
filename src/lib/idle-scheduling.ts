import { execFile } from 'node:child_process';
import { readlink } from 'node:fs/promises';
import { promisify } from 'node:util';

const run = promisify(execFile);

/**
 * Puts the calling thread under Linux's SCHED_IDLE policy: it runs only on CPU time no other
 * thread of the machine wants, and any other thread that wakes takes the CPU from it at once.
 * Lowering the nice value alone leaves a thread a share of a contended CPU and keeps woken
 * threads waiting for the scheduler's next turn. Answers whether the policy was set: false
 * elsewhere than Linux, or where `chrt` (util-linux) is missing or refused.
 *
 * Node has no binding for `sched_setscheduler`, so util-linux's `chrt` sets it on this thread's
 * own task ID (a Linux thread is a task of its own), read from /proc/thread-self.
 */
export async function scheduleCallingThreadWhenIdle(): Promise<boolean> {
  if (process.platform !== 'linux') return false;
  try {
    const taskId = (await readlink('/proc/thread-self')).split('/').at(-1)!;
    await run('chrt', ['--idle', '--pid', '0', taskId], { timeout: 5000 });
    return true;
  } catch {
    return false;
  }
}
