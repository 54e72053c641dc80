import compress from '@fastify/compress';
import type { FastifyInstance } from 'fastify';

/** Answers smaller than this are sent as they are: the encoding overhead outweighs the saving. */
export const COMPRESSION_THRESHOLD_BYTES = 1024;

/**
 * gzip and brotli (quality 4, the plugin's default: 11 would make a 10,000-event page slow) for
 * answers of a compressible type (JSON, text) when the client accepts them. Streamed answers
 * (large event pages) stay streamed through the encoder. PDFs are not a compressible type and
 * are sent as stored. Request bodies are not decompressed: they stay uncompressed only
 * (plugins/body-media.ts).
 */
export async function registerCompression(app: FastifyInstance): Promise<void> {
  await app.register(compress, {
    encodings: ['br', 'gzip'],
    threshold: COMPRESSION_THRESHOLD_BYTES,
    globalDecompression: false,
  });
}
