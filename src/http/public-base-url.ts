import type { FastifyRequest } from 'fastify';

/** The base of absolute URLs in responses: WRS_PUBLIC_URL, or the scheme and host the request came to. */
export function publicBaseUrl(request: FastifyRequest, configured: string | undefined): string {
  return configured ?? `${request.protocol}://${request.host}`;
}
