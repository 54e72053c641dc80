import { prettyFactory } from 'pino-pretty';

/** The fields of the one line a request gets in pretty logs (see src/http/logging.ts). */
export interface RequestLine {
  readonly method: string;
  readonly url: string;
  readonly statusCode: number;
  readonly responseTime: number;
}

/** Not shown on a pretty line: the request's line says it all, and one machine needs no pid or hostname. */
const HIDDEN = ['pid', 'hostname', 'reqId', 'req', 'res', 'method', 'url', 'statusCode', 'responseTime'];

function isRequestLine(log: Record<string, unknown>): log is Record<string, unknown> & RequestLine {
  return typeof log.method === 'string' && typeof log.url === 'string' && typeof log.statusCode === 'number';
}

/** `GET /v1/events 200 4 ms` for a request, the message for anything else. */
function message(log: Record<string, unknown>, messageKey: string): string {
  if (isRequestLine(log)) return `${log.method} ${log.url} ${log.statusCode} ${Math.round(log.responseTime)} ms`;
  const text = log[messageKey];
  return typeof text === 'string' ? text : '';
}

/**
 * pino's JSON lines made short human lines for a terminal: local time, level, message, and any
 * other field on the same line. Formatted in this thread and written synchronously, so a line
 * is never lost when the process exits, and the start screen comes after the lines before it.
 */
export function prettyStdout(): { write(line: string): void } {
  const prettify = prettyFactory({
    translateTime: 'SYS:HH:MM:ss',
    ignore: HIDDEN.join(','),
    singleLine: true,
    messageFormat: message,
  });
  return { write: (line) => void process.stdout.write(prettify(line)) };
}
