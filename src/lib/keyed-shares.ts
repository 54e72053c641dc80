/** A place taken in a share. `release()` gives it back; calling it again does nothing. */
export interface SharePlace {
  release(): void;
}

/**
 * What each key (a company, a client address) holds of a resource that is not waited for but
 * refused when the key's share is full: open streams, open connections. Only keys holding
 * something are kept, so memory is bounded by what is open.
 */
export interface KeyedShares {
  /** Places each key may hold at once; 0: no bound. */
  readonly limit: number;
  /** One place for `key`, or undefined (nothing taken) when it already holds `limit`. */
  take(key: string): SharePlace | undefined;
  held(key: string): number;
}

export function createKeyedShares(limit: number): KeyedShares {
  const held = new Map<string, number>();
  const giveBack = (key: string): void => {
    const left = (held.get(key) ?? 1) - 1;
    if (left > 0) held.set(key, left);
    else held.delete(key);
  };
  return {
    limit,
    take(key) {
      const count = held.get(key) ?? 0;
      if (limit > 0 && count >= limit) return undefined;
      held.set(key, count + 1);
      let released = false;
      return {
        release() {
          if (released) return;
          released = true;
          giveBack(key);
        },
      };
    },
    held: (key) => held.get(key) ?? 0,
  };
}
