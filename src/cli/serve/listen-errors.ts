import { ConfigError } from '../../config/config.js';

/** The settings that choose a listener's address: the API's, or the management listener's. */
export interface ListenSettings {
  readonly host: string;
  readonly port: string;
}

export const API_LISTENER: ListenSettings = { host: 'HOST', port: 'PORT' };
export const MANAGEMENT_LISTENER: ListenSettings = { host: 'WRS_MANAGEMENT_HOST', port: 'WRS_MANAGEMENT_PORT' };

/** Why the port could not be taken, for the errors an operator fixes with the listener's host or port setting. */
const LISTEN_PROBLEMS: Record<string, (address: string, names: ListenSettings) => string> = {
  EADDRINUSE: (address, names) =>
    `${address} is already in use by another program: stop it, or choose a free port with ${names.port} (and the interface with ${names.host})`,
  EACCES: (address, names) => `${address} may not be listened on by this user (ports below 1024 need privileges): choose another with ${names.port}`,
  EADDRNOTAVAIL: (address, names) => `${address}: ${names.host} is not an address of this machine; use one of its addresses, 127.0.0.1 or 0.0.0.0`,
  ENOTFOUND: (address, names) => `${address}: ${names.host} is not a name this machine can resolve; use an address such as 127.0.0.1 or 0.0.0.0`,
};

/**
 * A failure to listen that the configuration causes, as a ConfigError (printed without a
 * stack, exit status 78 like every configuration error); any other error is returned as it is.
 */
export function listenError(error: unknown, host: string, port: number, names: ListenSettings = API_LISTENER): unknown {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  const describe = code === undefined ? undefined : LISTEN_PROBLEMS[code];
  if (!describe) return error;
  const address = host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`;
  return new ConfigError([`${names.host}/${names.port}: ${describe(address, names)}`]);
}
