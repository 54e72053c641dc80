/** Longest wait between two attempts, however many came before. */
const MAX_DELAY_MS = 24 * 3600_000;

/**
 * The wait before the next attempt after `attempts` failed ones: base * 2^(attempts-1), of which
 * a random half is dropped (equal jitter), so that receivers coming back up are not hit by every
 * retry at once.
 */
export function retryDelayMs(attempts: number, baseMs: number, random: () => number = Math.random): number {
  const ceiling = Math.min(MAX_DELAY_MS, baseMs * 2 ** Math.max(0, attempts - 1));
  return Math.round(ceiling / 2 + random() * (ceiling / 2));
}
