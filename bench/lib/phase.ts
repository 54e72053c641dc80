/** What the bench is doing now, so the whole run's peak RSS can say when it was reached. */
let current = 'starting the service';

export function enterPhase(name: string): void {
  current = name;
}

export function currentPhase(): string {
  return current;
}
