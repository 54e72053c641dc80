import { ConfigError } from '../../config/config.js';

/** Why the port could not be taken, for the errors an operator fixes with HOST or PORT. */
const LISTEN_PROBLEMS: Record<string, (address: string) => string> = {
  EADDRINUSE: (address) =>
    `${address} is already in use by another program: stop it, or choose a free port with PORT (and the interface with HOST)`,
  EACCES: (address) => `${address} may not be listened on by this user (ports below 1024 need privileges): choose another with PORT`,
  EADDRNOTAVAIL: (address) => `${address}: HOST is not an address of this machine; use one of its addresses, 127.0.0.1 or 0.0.0.0`,
  ENOTFOUND: (address) => `${address}: HOST is not a name this machine can resolve; use an address such as 127.0.0.1 or 0.0.0.0`,
};

/**
 * A failure to listen that the configuration causes, as a ConfigError (printed without a
 * stack, exit status 78 like every configuration error); any other error is returned as it is.
 */
export function listenError(error: unknown, host: string, port: number): unknown {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  const describe = code === undefined ? undefined : LISTEN_PROBLEMS[code];
  if (!describe) return error;
  const address = host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`;
  return new ConfigError([`HOST/PORT: ${describe(address)}`]);
}
