/** Time as a dependency, so that expiry and timestamps can be tested without sleeping. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** A clock that only moves when told to; for tests. */
export class ManualClock implements Clock {
  private current: number;
  constructor(start: Date | string = '2026-01-01T00:00:00.000Z') {
    this.current = new Date(start).getTime();
  }
  now(): Date {
    return new Date(this.current);
  }
  set(at: Date | string): void {
    this.current = new Date(at).getTime();
  }
  advanceSeconds(seconds: number): void {
    this.current += seconds * 1000;
  }
}

/** The system's time moved by an offset that only grows when told to; for tests of expiry in real time. */
export class ShiftedClock implements Clock {
  private offsetMs = 0;
  now(): Date {
    return new Date(Date.now() + this.offsetMs);
  }
  advanceSeconds(seconds: number): void {
    this.offsetMs += seconds * 1000;
  }
}
