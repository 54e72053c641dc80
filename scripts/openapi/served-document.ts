import { createAppContext } from '../../src/app-context.js';
import { loadConfig } from '../../src/config/config.js';
import { buildApp } from '../../src/http/app.js';

/**
 * The OpenAPI document a deployment with default settings serves at `GET /v1/openapi.json`,
 * built in-process from the real app. The environment is fixed rather than read from
 * `process.env`, so the answer does not depend on the shell it runs in: no WRS_PUBLIC_URL
 * (`servers` is the relative `/`) and default limits in the descriptions.
 */
export async function buildServedOpenApiDocument(): Promise<Record<string, unknown>> {
  const config = loadConfig({ NODE_ENV: 'test', WRS_DATABASE_URL: 'sqlite::memory:', WRS_LOG_LEVEL: 'silent' });
  // Routes touch the database only when called; describing them needs no tables.
  const ctx = await createAppContext(config, { migrate: false });
  try {
    const app = await buildApp(ctx, { logger: false });
    try {
      const response = await app.inject({ method: 'GET', url: '/v1/openapi.json' });
      if (response.statusCode !== 200) throw new Error(`GET /v1/openapi.json answered ${response.statusCode}: ${response.body}`);
      return response.json();
    } finally {
      await app.close();
    }
  } finally {
    await ctx.close();
  }
}
