import { parseArgs } from 'node:util';
import { createTokenSigner } from '../../domain/auth/token-signer.js';
import { systemClock } from '../../lib/clock.js';
import { UsageError, type CliCommand } from '../command.js';
import { cliConfig } from '../config-from-env.js';
import { requireCompany } from '../operator.js';

export const tokenCommand: CliCommand = {
  name: 'token',
  usage: 'wrs token --company C [--user U] [--expires-in SECONDS]',
  summary: 'print a bearer JWT for a company user (signed with WRS_JWT_SECRET, naming WRS_JWT_ISSUER and WRS_JWT_AUDIENCE when set)',
  async run(argv) {
    const { values } = parseArgs({
      args: argv,
      options: { company: { type: 'string' }, user: { type: 'string' }, 'expires-in': { type: 'string' } },
    });
    const company = requireCompany(values.company);
    const expiresIn = Number(values['expires-in'] ?? 86_400);
    if (!Number.isInteger(expiresIn) || expiresIn < 1) throw new UsageError('--expires-in takes a whole number of seconds');
    const { config } = cliConfig('secrets-only');
    if (config.jwt.publicKeyPem || config.jwt.jwksUrl) {
      throw new UsageError('user tokens come from your identity provider when WRS_JWT_PUBLIC_KEY or WRS_JWT_JWKS_URL is set');
    }
    const signer = createTokenSigner(config.jwt, systemClock);
    const claims = { company_id: company, ...(values.user ? { sub: values.user } : {}) };
    console.log((await signer.sign(claims, expiresIn)).token);
  },
};
