/**
 * How long a process holds a lifecycle job between two of its batches. A process that died
 * holding it loses it this long after its last batch, and a restarted service or a re-run
 * command takes the job over from where its counts stand.
 */
export const JOB_LEASE_MS = 30_000;

export const leaseUntil = (now: Date): string => new Date(now.getTime() + JOB_LEASE_MS).toISOString();

/** How often a command waits for a job another process holds to move on. */
export const JOB_WAIT_POLL_MS = 500;
