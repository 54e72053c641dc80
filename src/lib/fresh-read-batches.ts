/**
 * Reads shared between concurrent callers, never answering a caller from a read that began
 * before it called.
 *
 * Callers are grouped (a company, say). A caller whose group has no read under way starts one
 * at once. Callers that come while one is under way cannot use it (it may have been sent
 * before a write they know of was committed), so they wait together for the read that starts
 * as soon as that one ends, which reads all their keys at once. Each caller is thus answered by
 * a read begun after it called, at most two reads' time later, and a group read by many callers
 * at once costs one read per round trip instead of one per caller.
 */
export function batchFreshReads<Group, Key, Value>(
  readBatch: (group: Group, keys: readonly Key[]) => Promise<(key: Key) => Value>,
): (group: Group, key: Key) => Promise<Value> {
  /**
   * Groups with a read under way, each with the batch waiting for that read to end (null while
   * nobody waits).
   */
  const underWay = new Map<Group, Batch<Key, Value> | null>();

  const begin = (group: Group, batch: Batch<Key, Value>): void => {
    underWay.set(group, null);
    let answered: Promise<(key: Key) => Value>;
    try {
      answered = readBatch(group, [...batch.callers.keys()]);
    } catch (error) {
      answered = Promise.reject(error);
    }
    const next = () => {
      const following = underWay.get(group);
      if (following) begin(group, following);
      else underWay.delete(group);
    };
    answered.then(
      (valueFor) => {
        batch.answer(valueFor);
        next();
      },
      (error: unknown) => {
        batch.fail(error);
        next();
      },
    );
  };

  return (group, key) => {
    let batch = underWay.get(group);
    if (batch === undefined) {
      const first = new Batch<Key, Value>();
      const answer = first.add(key);
      begin(group, first);
      return answer;
    }
    if (batch === null) underWay.set(group, (batch = new Batch<Key, Value>()));
    return batch.add(key);
  };
}

/** One key's reads shared as batchFreshReads shares them (each key its own group). */
export function shareFreshReads<Key, Value>(read: (key: Key) => Promise<Value>): (key: Key) => Promise<Value> {
  const batched = batchFreshReads<Key, Key, Value>(async (key) => {
    const value = await read(key);
    return () => value;
  });
  return (key) => batched(key, key);
}

interface Caller<Value> {
  readonly promise: Promise<Value>;
  resolve(value: Value): void;
  reject(error: unknown): void;
}

/** The callers of one read, one per distinct key (callers asking for the same key share it). */
class Batch<Key, Value> {
  readonly callers = new Map<Key, Caller<Value>>();

  add(key: Key): Promise<Value> {
    let caller = this.callers.get(key);
    if (caller === undefined) {
      let resolve!: (value: Value) => void;
      let reject!: (error: unknown) => void;
      const promise = new Promise<Value>((resolveCaller, rejectCaller) => {
        resolve = resolveCaller;
        reject = rejectCaller;
      });
      this.callers.set(key, (caller = { promise, resolve, reject }));
    }
    return caller.promise;
  }

  answer(valueFor: (key: Key) => Value): void {
    for (const [key, caller] of this.callers) {
      try {
        caller.resolve(valueFor(key));
      } catch (error) {
        caller.reject(error);
      }
    }
  }

  fail(error: unknown): void {
    for (const caller of this.callers.values()) caller.reject(error);
  }
}
