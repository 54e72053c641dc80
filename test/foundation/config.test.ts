import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ConfigError, loadConfig } from '../../src/config/config.js';

describe('config', () => {
  it('has working defaults in development and generates missing secrets', () => {
    const config = loadConfig({});
    assert.equal(config.port, 8080);
    assert.equal(config.host, '127.0.0.1', 'outside production only this machine is served (the demo token is printed)');
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

  const PRODUCTION = {
    NODE_ENV: 'production',
    WRS_JWT_SECRET: 'x'.repeat(32),
    WRS_ADMIN_TOKEN: 'admin-token-0123456789',
    WRS_ENCRYPTION_KEY: '00'.repeat(32),
  };

  it('listens on every interface in production, and where HOST says otherwise', () => {
    assert.equal(loadConfig({ ...PRODUCTION, WRS_PUBLIC_URL: 'https://api.example.com' }).host, '0.0.0.0');
    assert.equal(loadConfig({ NODE_ENV: 'test' }).host, '127.0.0.1');
    assert.equal(loadConfig({ HOST: '::' }).host, '::');
    assert.equal(loadConfig({ ...PRODUCTION, WRS_PUBLIC_URL: 'https://api.example.com', HOST: '10.0.0.5' }).host, '10.0.0.5');
  });

  it('refuses to start in production without a base for links (WRS_PUBLIC_URL or WRS_ALLOWED_HOSTS)', () => {
    assert.throws(
      () => loadConfig(PRODUCTION),
      (error: unknown) =>
        error instanceof ConfigError && error.problems.length === 1 && error.problems[0]!.startsWith('WRS_PUBLIC_URL or WRS_ALLOWED_HOSTS'),
    );
    assert.equal(loadConfig({ ...PRODUCTION, WRS_PUBLIC_URL: 'https://api.example.com/' }).publicUrl, 'https://api.example.com');
    assert.deepEqual(loadConfig({ ...PRODUCTION, WRS_ALLOWED_HOSTS: 'API.example.com, [::1]:8443,api.example.com:80' }).allowedHosts, [
      'api.example.com',
      '[::1]:8443',
      'api.example.com',
    ]);
  });

  it('names each allowed host that is not a host', () => {
    assert.throws(
      () => loadConfig({ WRS_ALLOWED_HOSTS: 'https://api.example.com,api.example.com/v1,ok.example.com,a b' }),
      (error: unknown) =>
        error instanceof ConfigError &&
        error.problems.length === 3 &&
        error.problems.every((problem) => problem.startsWith('WRS_ALLOWED_HOSTS:')),
    );
    assert.throws(() => loadConfig({ WRS_ALLOWED_HOSTS: ' , ' }), /WRS_ALLOWED_HOSTS: lists no host/);
  });

  it('limits open connections, in all and per client address, unless set to 0', () => {
    assert.deepEqual(loadConfig({}).connections, { max: 4096, perAddress: 128 });
    assert.deepEqual(loadConfig({ WRS_MAX_CONNECTIONS: '0', WRS_MAX_CONNECTIONS_PER_ADDRESS: '8' }).connections, { max: 0, perAddress: 8 });
    assert.throws(() => loadConfig({ WRS_MAX_CONNECTIONS_PER_ADDRESS: '-1' }), /WRS_MAX_CONNECTIONS_PER_ADDRESS/);
  });
});
