import type { ServerResponse } from 'node:http';

/**
 * Calls `callback` once the answer is over for any reason (sent, failed, or the client gone),
 * at once if it already is: a client can leave while a request still waits in a hook, and a
 * `close` listener added after that would never be called.
 */
export function whenResponseCloses(response: ServerResponse, callback: () => void): void {
  if (response.closed) callback();
  else response.once('close', callback);
}
