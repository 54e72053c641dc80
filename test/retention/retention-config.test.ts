import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ConfigError, loadConfig } from '../../src/config/config.js';

describe('retention settings', () => {
  it('keeps events forever by default, and sweeps every 10 minutes in batches of 1,000', () => {
    assert.deepEqual(loadConfig({}).retention, { defaultDays: undefined, sweepIntervalMs: 600_000, batchSize: 1000, batchPauseMs: 50 });
  });

  it('reads the deployment default and the sweep settings', () => {
    const retention = loadConfig({
      WRS_EVENT_RETENTION_DAYS: '90',
      WRS_RETENTION_SWEEP_INTERVAL_MS: '60000',
      WRS_RETENTION_BATCH_SIZE: '500',
      WRS_RETENTION_BATCH_PAUSE_MS: '0',
    }).retention;
    assert.deepEqual(retention, { defaultDays: 90, sweepIntervalMs: 60_000, batchSize: 500, batchPauseMs: 0 });
  });

  it('refuses a period or a pace out of bounds, naming each', () => {
    assert.throws(
      () => loadConfig({ WRS_EVENT_RETENTION_DAYS: '0', WRS_RETENTION_BATCH_SIZE: '0', WRS_RETENTION_SWEEP_INTERVAL_MS: '10' }),
      (error: unknown) =>
        error instanceof ConfigError &&
        ['WRS_EVENT_RETENTION_DAYS', 'WRS_RETENTION_BATCH_SIZE', 'WRS_RETENTION_SWEEP_INTERVAL_MS'].every((name) =>
          error.problems.some((problem) => problem.startsWith(name)),
        ),
    );
    assert.throws(() => loadConfig({ WRS_EVENT_RETENTION_DAYS: '30 days' }), ConfigError);
    assert.throws(() => loadConfig({ WRS_EVENT_RETENTION_DAYS: '1.5' }), ConfigError);
  });
});
