import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ConfigError, loadConfig } from '../../src/config/config.js';

describe('config', () => {
  it('has working defaults in development and generates missing secrets', () => {
    const config = loadConfig({});
    assert.equal(config.port, 8080);
    assert.equal(config.host, '0.0.0.0');
    assert.equal(config.databaseUrl, 'sqlite:./data/wrs.db');
    assert.deepEqual([...config.generatedSecrets].sort(), ['WRS_ADMIN_TOKEN', 'WRS_ENCRYPTION_KEY', 'WRS_JWT_SECRET']);
    assert.equal(config.encryptionKey.length, 32);
    assert.ok(Object.isFrozen(config));
  });

  it('refuses to start in production without its secrets, naming each', () => {
    assert.throws(
      () => loadConfig({ NODE_ENV: 'production' }),
      (error: unknown) =>
        error instanceof ConfigError &&
        ['WRS_JWT_SECRET', 'WRS_ADMIN_TOKEN', 'WRS_ENCRYPTION_KEY'].every((name) =>
          error.problems.some((problem) => problem.startsWith(name)),
        ),
    );
  });

  it('lists every malformed setting at once', () => {
    assert.throws(
      () => loadConfig({ PORT: 'eighty', WRS_DATABASE_URL: 'mysql://x', WRS_ENCRYPTION_KEY: 'short' }),
      (error: unknown) => error instanceof ConfigError && error.problems.length === 3,
    );
  });

  it('converts numbers and booleans from strings', () => {
    const config = loadConfig({ PORT: '9000', WRS_TRUST_PROXY: 'true', WRS_JWT_LEEWAY_S: '30' });
    assert.equal(config.port, 9000);
    assert.equal(config.trustProxy, true);
    assert.equal(config.jwt.leewaySeconds, 30);
  });
});
