import { LogController, type FastifyBaseLogger, type FastifyServerOptions } from 'fastify';
import type { Config } from '../config/config.js';
import { prettyStdout, type RequestLine } from '../lib/pretty-log.js';

/**
 * Pretty logs give a request one line when it is answered (method, URL, status, time) instead
 * of Fastify's two (received, completed); the line received is kept at debug level.
 */
class OneLinePerRequest extends LogController {
  override incomingRequest(...[request]: Parameters<LogController['incomingRequest']>): void {
    if (this.isLogDisabled(request)) return;
    request.log.debug({ req: request }, 'incoming request');
  }

  override requestCompleted(...[error, request, reply]: Parameters<LogController['requestCompleted']>): void {
    if (this.isLogDisabled(request)) return;
    const line: RequestLine = { method: request.method, url: request.url, statusCode: reply.statusCode, responseTime: reply.elapsedTime };
    const log: FastifyBaseLogger = reply.log;
    if (error) log.error({ ...line, err: error }, 'request errored');
    else log.info(line, 'request completed');
  }
}

/** Fastify's logger in the configured format: JSON lines as pino writes them, or short human lines. */
export function loggerOptions(config: Config): Pick<FastifyServerOptions, 'logger' | 'logController'> {
  const logger = { level: config.logLevel, redact: ['req.headers.authorization'] };
  if (config.logFormat === 'json') return { logger };
  return { logger: { ...logger, stream: prettyStdout() }, logController: new OneLinePerRequest() };
}
