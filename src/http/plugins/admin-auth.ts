import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { unauthorized } from '../../errors/app-error.js';

const digest = (value: string): Buffer => createHash('sha256').update(value).digest();

/** The operator API is guarded by one bearer secret, WRS_ADMIN_TOKEN, compared in constant time. */
export function registerAdminAuthentication(scope: FastifyInstance, adminToken: string): void {
  const expected = digest(`Bearer ${adminToken}`);
  scope.addHook('onRequest', async (request) => {
    const header = request.headers.authorization;
    if (!header) throw unauthorized('missing operator token: send "Authorization: Bearer <WRS_ADMIN_TOKEN>"');
    if (!timingSafeEqual(digest(header), expected)) throw unauthorized('operator token is invalid');
  });
}
