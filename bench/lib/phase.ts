/** Each phase entered, from when (microseconds on the monotonic clock a V8 CPU profile's times use). */
const entered: { name: string; atMicros: number }[] = [];

/** Also says on stderr what the bench is doing now and when it began (a full run takes 20 minutes). */
export function enterPhase(name: string): void {
  entered.push({ name, atMicros: monotonicMicros() });
  process.stderr.write(`${new Date().toISOString()} ${name}\n`);
}

/** What the bench is doing now, so the whole run's peak RSS can say when it was reached. */
export function currentPhase(): string {
  return entered.at(-1)?.name ?? 'starting the service';
}

export interface PhaseSpan {
  name: string;
  startMicros: number;
  endMicros: number;
}

/** The phases entered so far, each ending where the next began (the last one now). */
export function phaseSpans(): PhaseSpan[] {
  const now = monotonicMicros();
  return entered.map((phase, i) => ({ name: phase.name, startMicros: phase.atMicros, endMicros: entered[i + 1]?.atMicros ?? now }));
}

function monotonicMicros(): number {
  return Number(process.hrtime.bigint() / 1000n);
}
