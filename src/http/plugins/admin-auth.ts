import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { unauthorized } from '../../errors/app-error.js';

const digest = (value: string): Buffer => createHash('sha256').update(value).digest();

export interface BearerSecretMessages {
  /** The 401 message when no Authorization header is sent. */
  readonly missing: string;
  /** The 401 message when the bearer is none of the secrets. */
  readonly invalid: string;
}

/** Guards a scope by bearer secrets: the request passes when it sends any one of them. */
export function registerBearerSecrets(scope: FastifyInstance, secrets: readonly string[], messages: BearerSecretMessages): void {
  const expected = secrets.map((secret) => digest(`Bearer ${secret}`));
  scope.addHook('onRequest', async (request) => {
    const header = request.headers.authorization;
    if (!header) throw unauthorized(messages.missing);
    const sent = digest(header);
    // Every secret is compared, in constant time, so the answer's timing says nothing of which matched.
    let matched = false;
    for (const secret of expected) matched = timingSafeEqual(sent, secret) || matched;
    if (!matched) throw unauthorized(messages.invalid);
  });
}

/** The operator API is guarded by one bearer secret, WRS_ADMIN_TOKEN, compared in constant time. */
export function registerAdminAuthentication(scope: FastifyInstance, adminToken: string): void {
  registerBearerSecrets(scope, [adminToken], {
    missing: 'missing operator token: send "Authorization: Bearer <WRS_ADMIN_TOKEN>"',
    invalid: 'operator token is invalid',
  });
}
