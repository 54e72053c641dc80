import { Type } from '@sinclair/typebox';

export type LogFormat = 'json' | 'pretty';

/** How logs are written. Part of the one environment schema in `config.ts`. */
export const LogFormatEnv = {
  WRS_LOG_FORMAT: Type.Union([Type.Literal('auto'), Type.Literal('json'), Type.Literal('pretty')], { default: 'auto' }),
};

/**
 * `auto`: short human lines for a developer watching a terminal (NODE_ENV=development and
 * stdout a TTY), JSON lines for everything that reads logs as data: production, a pipe or a
 * file, and tests (NODE_ENV=test).
 */
export function chooseLogFormat(setting: 'auto' | LogFormat, nodeEnv: string, stdoutIsTerminal: boolean): LogFormat {
  if (setting !== 'auto') return setting;
  return nodeEnv === 'development' && stdoutIsTerminal ? 'pretty' : 'json';
}
