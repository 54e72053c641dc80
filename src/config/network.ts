import { Type, type Static } from '@sinclair/typebox';

/**
 * How clients reach the service: the base of the links it writes into answers, which proxy
 * headers it believes, and how many connections it keeps open. Part of the one environment
 * schema in `config.ts`.
 */
export const NetworkEnv = {
  WRS_PUBLIC_URL: Type.Optional(Type.String({ pattern: '^https?://' })),
  WRS_ALLOWED_HOSTS: Type.Optional(Type.String({ minLength: 1 })),
  WRS_TRUST_PROXY: Type.Boolean({ default: false }),
  WRS_MAX_CONNECTIONS: Type.Integer({ default: 4096, minimum: 0 }),
  WRS_MAX_CONNECTIONS_PER_ADDRESS: Type.Integer({ default: 128, minimum: 0 }),
  WRS_MANAGEMENT_PORT: Type.Optional(Type.Integer({ minimum: 0, maximum: 65535 })),
  WRS_MANAGEMENT_HOST: Type.Optional(Type.String({ minLength: 1 })),
};

const NetworkEnvSchema = Type.Object(NetworkEnv);
type NetworkEnvValues = Static<typeof NetworkEnvSchema>;

export interface ConnectionSettings {
  /** Open connections one process keeps; more are closed at once. 0 = no limit. */
  readonly max: number;
  /**
   * Open connections per client address (IPv6 by /64); 0 = no limit. With trustProxy every
   * connection comes from the balancer, so the bound applies instead to the requests (streams
   * included) open at once per forwarded client address.
   */
  readonly perAddress: number;
}

/** Where /healthz, /readyz and /metrics are also served, apart from the API's connections. */
export interface ManagementListener {
  readonly host: string;
  readonly port: number;
}

export interface NetworkSettings {
  /** Base of absolute URLs in answers (links, Location); wins over any request header. */
  readonly publicUrl: string | undefined;
  /**
   * Hosts (`host` or `host:port`, lower case) a request may name to get links to itself.
   * Empty = any host outside production; in production a request naming another host gets
   * links to publicUrl, else to the first of these.
   */
  readonly allowedHosts: readonly string[];
  /** Honour X-Forwarded-* headers (set behind a load balancer). */
  readonly trustProxy: boolean;
  readonly connections: ConnectionSettings;
  /** WRS_MANAGEMENT_PORT (and _HOST, default HOST); undefined: the probes and metrics share the API's listener. */
  readonly management: ManagementListener | undefined;
}

/** Where the API listens (HOST, PORT), which the management listener defaults to and must differ from. */
export interface ApiListener {
  readonly host: string;
  readonly port: number;
}

/** Maps the validated environment onto settings; problems are pushed to `problems`. */
export function networkSettings(env: NetworkEnvValues, production: boolean, api: ApiListener, problems: string[]): NetworkSettings {
  const allowedHosts = hostList(env.WRS_ALLOWED_HOSTS, problems);
  if (production && env.WRS_PUBLIC_URL === undefined && env.WRS_ALLOWED_HOSTS === undefined) {
    problems.push(
      'WRS_PUBLIC_URL or WRS_ALLOWED_HOSTS: one is required when NODE_ENV=production ' +
        '(the base of the links in answers must not come from whatever Host a client sends)',
    );
  }
  return Object.freeze({
    publicUrl: env.WRS_PUBLIC_URL?.replace(/\/+$/, ''),
    allowedHosts: Object.freeze(allowedHosts),
    trustProxy: env.WRS_TRUST_PROXY,
    connections: Object.freeze({
      max: env.WRS_MAX_CONNECTIONS,
      perAddress: env.WRS_MAX_CONNECTIONS_PER_ADDRESS,
    }),
    management: managementListener(env, api, problems),
  });
}

function managementListener(env: NetworkEnvValues, api: ApiListener, problems: string[]): ManagementListener | undefined {
  const port = env.WRS_MANAGEMENT_PORT;
  if (port === undefined) {
    if (env.WRS_MANAGEMENT_HOST !== undefined) problems.push('WRS_MANAGEMENT_HOST: set WRS_MANAGEMENT_PORT as well (the port to listen on)');
    return undefined;
  }
  const host = env.WRS_MANAGEMENT_HOST ?? api.host;
  if (port !== 0 && port === api.port && host === api.host) {
    problems.push(`WRS_MANAGEMENT_PORT: ${port} is the API's PORT; the management listener needs a port of its own`);
  }
  return Object.freeze({ host, port });
}

/** A comma-separated list of `host` or `host:port` (IPv6 in brackets), without scheme or path. */
function hostList(value: string | undefined, problems: string[]): string[] {
  if (value === undefined) return [];
  const entries = value
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean);
  const hosts: string[] = [];
  for (const entry of entries) {
    const host = normalizedHost(entry);
    if (host) hosts.push(host);
    else problems.push(`WRS_ALLOWED_HOSTS: "${entry}" is not a host like api.example.com or api.example.com:8443`);
  }
  if (entries.length === 0) problems.push('WRS_ALLOWED_HOSTS: lists no host');
  return hosts;
}

/**
 * A `Host` value as a URL would hold it (lower case, no default port 80), or undefined when it
 * is not one host with an optional port.
 */
export function normalizedHost(value: string): string | undefined {
  if (!/^[^\s/?#@\\]+$/.test(value)) return undefined;
  try {
    const host = new URL(`http://${value}`).host;
    return host === '' ? undefined : host;
  } catch {
    return undefined;
  }
}
