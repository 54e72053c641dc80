import { useEffect, useState } from 'preact/hooks';
import { followEventStream, type StreamStatus } from './event-stream';
import type { EventRow } from './events-table';

/** The live tail keeps this many of the newest events. */
export const LIVE_TAIL_LIMIT = 200;

export type TailStatus = StreamStatus | { state: 'off' };

export interface LiveTail {
  readonly on: boolean;
  readonly status: TailStatus;
  /** Newest first. */
  readonly rows: readonly EventRow[];
  setOn(on: boolean): void;
  clear(): void;
}

/** Follows GET /v1/events/stream while on, restarting when the followed type changes. */
export function useLiveTail(token: string, type: string | undefined, onUnauthorized: () => void): LiveTail {
  const [on, setOn] = useState(false);
  const [status, setStatus] = useState<TailStatus>({ state: 'off' });
  const [rows, setRows] = useState<readonly EventRow[]>([]);

  useEffect(() => {
    if (!on) {
      setStatus({ state: 'off' });
      return;
    }
    return followEventStream({
      token,
      ...(type === undefined ? {} : { type }),
      onEvent: (event, cursor) =>
        setRows((current) => [{ key: cursor || `${event.id}-${Date.now()}`, event, isNew: true }, ...current].slice(0, LIVE_TAIL_LIMIT)),
      onStatus: setStatus,
      onUnauthorized,
    });
    // onUnauthorized only signs out; a new function each render must not reopen the stream.
  }, [on, token, type]);

  return { on, status, rows, setOn, clear: () => setRows([]) };
}
