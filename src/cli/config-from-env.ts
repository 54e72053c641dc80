import { loadConfig, type Config } from '../config/config.js';
import { withDevelopmentSecrets } from './dev-secrets.js';

/** The CLI's config: the environment, plus persisted development secrets outside production. */
export function cliConfig(): { config: Config; devSecrets: string[] } {
  const { env, filled } = withDevelopmentSecrets(process.env);
  return { config: loadConfig(env), devSecrets: filled };
}
