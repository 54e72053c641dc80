import type { FastifyRequest } from 'fastify';
import type { Config } from '../config/config.js';
import { normalizedHost } from '../config/network.js';

export type PublicLinkSettings = Pick<Config, 'env' | 'publicUrl' | 'allowedHosts'>;

/**
 * The base of absolute URLs in answers (`next`, `download_url`, `Location`, ...): WRS_PUBLIC_URL
 * when set; else the scheme and host the request came to, when that host is on
 * WRS_ALLOWED_HOSTS (or, outside production, when no list is set); else the first allowed
 * host. A forged `Host` (or, with WRS_TRUST_PROXY, `X-Forwarded-Host`) never picks where links
 * point in production.
 */
export function publicBaseUrl(request: FastifyRequest, settings: PublicLinkSettings): string {
  if (settings.publicUrl !== undefined) return settings.publicUrl;
  const scheme = request.protocol === 'https' ? 'https' : 'http';
  const host = normalizedHost(request.host);
  const { allowedHosts } = settings;
  if (host !== undefined && (allowedHosts.includes(host) || (allowedHosts.length === 0 && settings.env !== 'production'))) {
    return `${scheme}://${host}`;
  }
  // Production without either setting is refused at start (config/network.ts).
  return `${scheme}://${allowedHosts[0] ?? 'localhost'}`;
}

/** The absolute URL of a resource of this service, its path segments percent-encoded. */
export function resourceUrl(request: FastifyRequest, settings: PublicLinkSettings, ...segments: string[]): string {
  return `${publicBaseUrl(request, settings)}/${segments.map(encodeURIComponent).join('/')}`;
}
