import compress from '@fastify/compress';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { encodedEtag } from '../conditional-requests.js';
import { appendRouteHook } from '../route-hooks.js';

/** Answers smaller than this are sent as they are: the encoding overhead outweighs the saving. */
export const COMPRESSION_THRESHOLD_BYTES = 1024;

const ACCEPT_ENCODING = 'accept-encoding';

/**
 * gzip and brotli (quality 4, the plugin's default: 11 would make a 10,000-event page slow) for
 * answers of a compressible type (JSON, text) when the client accepts them. Streamed answers
 * (large event pages) stay streamed through the encoder. PDFs are not a compressible type and
 * are sent as stored. Request bodies are not decompressed: they stay uncompressed only
 * (plugins/body-media.ts).
 *
 * A strong ETag names one representation, bytes included: a compressed answer's strong tag gets
 * the coding as a suffix (`"abc.gzip"`, `"abc.br"`), and every answer says `Vary: accept-encoding`,
 * compressed or not, so no cache hands one coding's body to a client that asked for another.
 */
export async function registerCompression(app: FastifyInstance): Promise<void> {
  await app.register(compress, {
    encodings: ['br', 'gzip'],
    threshold: COMPRESSION_THRESHOLD_BYTES,
    globalDecompression: false,
  });
  // Registered after the plugin's own onRoute hook, so this onSend runs after it has encoded.
  app.addHook('onRoute', (route) => appendRouteHook(route, 'onSend', tagEncoding));
}

function tagEncoding(_request: FastifyRequest, reply: FastifyReply, payload: unknown, done: (error: null, payload: unknown) => void): void {
  addVary(reply);
  const etag = reply.getHeader('etag');
  const coding = reply.getHeader('content-encoding');
  if (typeof etag === 'string' && typeof coding === 'string' && coding !== 'identity') reply.header('etag', encodedEtag(etag, coding));
  done(null, payload);
}

function addVary(reply: FastifyReply): void {
  const current = reply.getHeader('vary');
  const names =
    current === undefined
      ? []
      : String(current)
          .split(',')
          .map((name) => name.trim());
  if (names.some((name) => name.toLowerCase() === ACCEPT_ENCODING || name === '*')) return;
  reply.header('vary', [...names.filter(Boolean), ACCEPT_ENCODING].join(', '));
}
