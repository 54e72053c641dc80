import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { ConfigError, loadConfig } from '../../src/config/config.js';

/** The wrs installation these tests run in. */
const INSTALLATION = fileURLToPath(new URL('../../', import.meta.url));

describe('config', () => {
  it('has working defaults in development and generates missing secrets', () => {
    const config = loadConfig({});
    assert.equal(config.port, 8080);
    assert.equal(config.host, '127.0.0.1', 'outside production only this machine is served (the demo token is printed)');
    assert.equal(config.databaseUrl, `sqlite:${join(INSTALLATION, 'data', 'wrs.db')}`, "the installation's data folder, whatever the cwd");
    assert.deepEqual([...config.generatedSecrets].sort(), ['WRS_ADMIN_TOKEN', 'WRS_ENCRYPTION_KEY', 'WRS_JWT_SECRET']);
    assert.equal(config.encryptionKey.length, 32);
    assert.ok(Object.isFrozen(config));
  });

  it('refuses to start in production without its secrets, naming each', () => {
    assert.throws(
      () => loadConfig({ NODE_ENV: 'production' }),
      (error: unknown) =>
        error instanceof ConfigError &&
        ['WRS_JWT_SECRET', 'WRS_ADMIN_TOKEN', 'WRS_ENCRYPTION_KEY'].every((name) => error.problems.some((problem) => problem.startsWith(name))),
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
      (error: unknown) => error instanceof ConfigError && error.problems.length === 1 && error.problems[0]!.startsWith('WRS_PUBLIC_URL or WRS_ALLOWED_HOSTS'),
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
        error instanceof ConfigError && error.problems.length === 3 && error.problems.every((problem) => problem.startsWith('WRS_ALLOWED_HOSTS:')),
    );
    assert.throws(() => loadConfig({ WRS_ALLOWED_HOSTS: ' , ' }), /WRS_ALLOWED_HOSTS: lists no host/);
  });

  it('limits open connections, in all and per client address, unless set to 0', () => {
    assert.deepEqual(loadConfig({}).connections, { max: 4096, perAddress: 128 });
    assert.deepEqual(loadConfig({ WRS_MAX_CONNECTIONS: '0', WRS_MAX_CONNECTIONS_PER_ADDRESS: '8' }).connections, { max: 0, perAddress: 8 });
    assert.throws(() => loadConfig({ WRS_MAX_CONNECTIONS_PER_ADDRESS: '-1' }), /WRS_MAX_CONNECTIONS_PER_ADDRESS/);
  });

  it('caps event streams per company (50 unless set; 0 = no limit)', () => {
    assert.equal(loadConfig({}).stream.perCompany, 50);
    assert.equal(loadConfig({ WRS_STREAMS_PER_COMPANY: '0' }).stream.perCompany, 0);
    assert.throws(() => loadConfig({ WRS_STREAMS_PER_COMPANY: '-1' }), /WRS_STREAMS_PER_COMPANY/);
  });

  it('serves the probes and metrics on a management port only when WRS_MANAGEMENT_PORT is set, at HOST unless told', () => {
    assert.equal(loadConfig({}).management, undefined);
    assert.deepEqual(loadConfig({ WRS_MANAGEMENT_PORT: '9090' }).management, { host: '127.0.0.1', port: 9090 });
    const production = {
      NODE_ENV: 'production',
      WRS_PUBLIC_URL: 'https://api.example.com',
      WRS_JWT_SECRET: 'x'.repeat(32),
      WRS_ADMIN_TOKEN: 'a'.repeat(16),
      WRS_ENCRYPTION_KEY: '0'.repeat(64),
    };
    assert.deepEqual(loadConfig({ ...production, WRS_MANAGEMENT_PORT: '9090' }).management, { host: '0.0.0.0', port: 9090 });
    assert.deepEqual(loadConfig({ WRS_MANAGEMENT_PORT: '9090', WRS_MANAGEMENT_HOST: '10.0.0.21' }).management, { host: '10.0.0.21', port: 9090 });
    assert.throws(() => loadConfig({ PORT: '9000', WRS_MANAGEMENT_PORT: '9000' }), /WRS_MANAGEMENT_PORT: 9000 is the API's PORT/);
    assert.equal(loadConfig({ PORT: '9000', WRS_MANAGEMENT_PORT: '9000', WRS_MANAGEMENT_HOST: '127.0.0.2' }).management?.port, 9000);
    assert.throws(() => loadConfig({ WRS_MANAGEMENT_HOST: '10.0.0.21' }), /WRS_MANAGEMENT_HOST: set WRS_MANAGEMENT_PORT as well/);
    assert.throws(() => loadConfig({ WRS_MANAGEMENT_PORT: '70000' }), /WRS_MANAGEMENT_PORT/);
  });

  describe('where the data is', () => {
    const at = (cwd: string, env: NodeJS.ProcessEnv = {}) => loadConfig(env, { cwd, stdoutIsTerminal: false });

    it("defaults to the installation's data folder from any cwd, the secrets beside the database", () => {
      const config = at('/somewhere/else');
      assert.equal(config.data.dir, join(INSTALLATION, 'data'));
      assert.equal(config.data.sqliteFile, join(INSTALLATION, 'data', 'wrs.db'));
      assert.equal(config.data.secretsFile, join(INSTALLATION, 'data', 'dev-secrets.json'));
    });

    it('takes WRS_DATA_DIR, relative to the cwd', () => {
      const config = at('/home/dev/project', { WRS_DATA_DIR: '../state' });
      assert.equal(config.data.dir, '/home/dev/state');
      assert.equal(config.databaseUrl, 'sqlite:/home/dev/state/wrs.db');
      assert.equal(config.data.secretsFile, '/home/dev/state/dev-secrets.json');
    });

    it('keeps an explicit SQLite path relative to the cwd, with its secrets beside it, whatever WRS_DATA_DIR says', () => {
      const config = at('/home/dev/project', { WRS_DATABASE_URL: 'sqlite:./db/app.db', WRS_DATA_DIR: '/srv/wrs' });
      assert.equal(config.databaseUrl, 'sqlite:/home/dev/project/db/app.db');
      assert.equal(config.data.sqliteFile, '/home/dev/project/db/app.db');
      assert.equal(config.data.secretsFile, '/home/dev/project/db/dev-secrets.json');
    });

    it('keeps the secrets of PostgreSQL and of an in-memory database in the data folder', () => {
      const postgres = at('/x', { WRS_DATABASE_URL: 'postgres://wrs@db:5432/wrs', WRS_DATA_DIR: '/srv/wrs' });
      assert.equal(postgres.databaseUrl, 'postgres://wrs@db:5432/wrs');
      assert.equal(postgres.data.sqliteFile, undefined);
      assert.equal(postgres.data.secretsFile, '/srv/wrs/dev-secrets.json');
      const memory = at('/x', { WRS_DATABASE_URL: 'sqlite::memory:', WRS_DATA_DIR: '/srv/wrs' });
      assert.equal(memory.databaseUrl, 'sqlite::memory:');
      assert.equal(memory.data.sqliteFile, undefined);
      assert.equal(memory.data.secretsFile, '/srv/wrs/dev-secrets.json');
    });
  });

  describe('log format', () => {
    const format = (env: NodeJS.ProcessEnv, stdoutIsTerminal: boolean) => loadConfig(env, { cwd: '/', stdoutIsTerminal }).logFormat;

    it('is pretty only for development on a terminal, JSON for production, pipes and tests', () => {
      assert.equal(format({}, true), 'pretty');
      assert.equal(format({ NODE_ENV: 'development' }, true), 'pretty');
      assert.equal(format({}, false), 'json');
      assert.equal(format({ NODE_ENV: 'test' }, true), 'json');
      assert.equal(format({ ...PRODUCTION, WRS_PUBLIC_URL: 'https://api.example.com' }, true), 'json');
    });

    it('follows WRS_LOG_FORMAT when set, and names a bad value', () => {
      assert.equal(format({ WRS_LOG_FORMAT: 'json' }, true), 'json');
      assert.equal(format({ NODE_ENV: 'test', WRS_LOG_FORMAT: 'pretty' }, false), 'pretty');
      assert.equal(format({ WRS_LOG_FORMAT: 'auto' }, true), 'pretty');
      assert.throws(() => format({ WRS_LOG_FORMAT: 'text' }, true), /WRS_LOG_FORMAT/);
    });
  });
});
