// The one hand-written request of the console: EventSource cannot send the Authorization
// header and the typed client does not stream, so GET /v1/events/stream is read with fetch.
import type { Event as WrsEvent } from '@wrs/client';
import { EventSourceParserStream } from 'eventsource-parser/stream';

export type StreamStatus = { state: 'connecting' } | { state: 'live' } | { state: 'reconnecting'; inSeconds: number } | { state: 'failed'; message: string };

export interface EventStreamOptions {
  token: string;
  /** Only events of this exact type. */
  type?: string;
  onEvent(event: WrsEvent, cursor: string): void;
  onStatus(status: StreamStatus): void;
  /** The service answered 401: the token expired or was revoked. */
  onUnauthorized(): void;
}

const FIRST_RETRY_MS = 1000;
const LONGEST_RETRY_MS = 30_000;

/**
 * Follows the live stream until the returned function is called. After a drop it reconnects
 * with backoff, sending the last message's id as Last-Event-ID, so nothing is missed.
 */
export function followEventStream(options: EventStreamOptions): () => void {
  const abort = new AbortController();
  void run(options, abort.signal);
  return () => abort.abort();
}

async function run(options: EventStreamOptions, signal: AbortSignal): Promise<void> {
  let lastId: string | undefined;
  let failures = 0;
  while (!signal.aborted) {
    options.onStatus({ state: 'connecting' });
    try {
      const response = await fetch(streamUrl(options.type), {
        headers: {
          authorization: `Bearer ${options.token}`,
          accept: 'text/event-stream',
          ...(lastId === undefined ? {} : { 'last-event-id': lastId }),
        },
        cache: 'no-store',
        signal,
      });
      if (response.status === 401) return options.onUnauthorized();
      if (response.status === 400 || response.status === 403) {
        return options.onStatus({ state: 'failed', message: await messageOf(response) });
      }
      if (response.ok && response.body) {
        options.onStatus({ state: 'live' });
        failures = 0;
        const messages = response.body.pipeThrough(new TextDecoderStream()).pipeThrough(new EventSourceParserStream()).getReader();
        for (;;) {
          const { done, value: message } = await messages.read();
          if (done) break;
          if (message.event !== 'event') continue;
          const event = parseEvent(message.data);
          if (!event) continue;
          if (message.id !== undefined) lastId = message.id;
          options.onEvent(event, message.id ?? '');
        }
      }
    } catch {
      // A dropped connection or an aborted read: reconnect below, unless stopped.
    }
    if (signal.aborted) return;
    failures++;
    const delay = Math.min(LONGEST_RETRY_MS, FIRST_RETRY_MS * 2 ** (failures - 1)) * (0.75 + Math.random() * 0.5);
    options.onStatus({ state: 'reconnecting', inSeconds: Math.max(1, Math.round(delay / 1000)) });
    await sleep(delay, signal);
  }
}

function streamUrl(type: string | undefined): string {
  const url = new URL('/v1/events/stream', location.origin);
  if (type !== undefined) url.searchParams.set('type', type);
  return url.toString();
}

function parseEvent(data: string): WrsEvent | undefined {
  try {
    const value: unknown = JSON.parse(data);
    const candidate = value as Partial<WrsEvent> | null;
    // The service sends Events as GET /v1/events does; this only guards against a stray message.
    return typeof candidate?.id === 'string' && typeof candidate.type === 'string' ? (value as WrsEvent) : undefined;
  } catch {
    return undefined;
  }
}

async function messageOf(response: Response): Promise<string> {
  try {
    const body = (await response.json()) as { message?: unknown };
    if (typeof body.message === 'string') return body.message;
  } catch {
    // Not JSON: the status says it.
  }
  return `The service answered ${response.status}.`;
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        resolve();
      },
      { once: true },
    );
  });
}
