import { parseArgs } from 'node:util';
import { createTokenSigner } from '../../domain/auth/token-signer.js';
import { mintedUserTokenLifetime, userTokenLifetimeProblem } from '../../domain/auth/user-token-lifetime.js';
import { systemClock } from '../../lib/clock.js';
import { UsageError, type CliCommand } from '../command.js';
import { cliConfig } from '../config-from-env.js';
import { requireCompany } from '../operator.js';

export const tokenCommand: CliCommand = {
  name: 'token',
  usage: 'wrs token --company C [--user U] [--expires-in SECONDS (default 86400, at most WRS_JWT_MAX_LIFETIME_S)]',
  summary: 'print a bearer JWT for a company user (signed with WRS_JWT_SECRET, naming WRS_JWT_ISSUER and WRS_JWT_AUDIENCE when set)',
  async run(argv) {
    const { values } = parseArgs({
      args: argv,
      options: { company: { type: 'string' }, user: { type: 'string' }, 'expires-in': { type: 'string' } },
    });
    const company = requireCompany(values.company);
    const requested = values['expires-in'] === undefined ? undefined : Number(values['expires-in']);
    if (requested !== undefined && (!Number.isInteger(requested) || requested < 1)) {
      throw new UsageError('--expires-in takes a whole number of seconds');
    }
    const { config } = cliConfig('secrets-only');
    const expiresIn = mintedUserTokenLifetime(requested, config.jwt.maxLifetimeSeconds);
    const tooLong = userTokenLifetimeProblem(expiresIn, config.jwt.maxLifetimeSeconds);
    if (tooLong) throw new UsageError(`--expires-in ${tooLong}`);
    if (config.jwt.publicKeyPem || config.jwt.jwksUrl) {
      throw new UsageError('user tokens come from your identity provider when WRS_JWT_PUBLIC_KEY or WRS_JWT_JWKS_URL is set');
    }
    const signer = createTokenSigner(config.jwt, systemClock);
    const claims = { company_id: company, ...(values.user ? { sub: values.user } : {}) };
    console.log((await signer.sign(claims, expiresIn)).token);
  },
};
