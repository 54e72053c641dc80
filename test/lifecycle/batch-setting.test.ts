import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ConfigError, loadConfig } from '../../src/config/config.js';

describe('WRS_LIFECYCLE_BATCH_ROWS', () => {
  it('defaults to 1,000 rows a transaction and takes 1 to 100,000', () => {
    assert.deepEqual(loadConfig({}).dataLifecycle, { batchRows: 1000 });
    assert.deepEqual(loadConfig({ WRS_LIFECYCLE_BATCH_ROWS: '250' }).dataLifecycle, { batchRows: 250 });
    for (const refused of ['0', '100001', '1.5', 'many']) {
      assert.throws(
        () => loadConfig({ WRS_LIFECYCLE_BATCH_ROWS: refused }),
        (error: unknown) => error instanceof ConfigError && error.problems.some((problem) => problem.startsWith('WRS_LIFECYCLE_BATCH_ROWS')),
        refused,
      );
    }
  });
});
