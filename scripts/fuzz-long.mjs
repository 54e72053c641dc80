#!/usr/bin/env node
// The input properties of test/hardening/property-input.test.ts, run longer than `npm test` runs them:
//   npm run fuzz                                  1000 generated requests per route (SQLite; PostgreSQL too when WRS_TEST_PG_URL is set)
//   npm run fuzz -- --runs 5000 --seed 42         more runs, a fixed seed (a failure prints its seed and path to replay)
//   npm run fuzz -- --routes /v1/records,events   only routes whose "METHOD /path" contains one of these
import { spawnSync } from 'node:child_process';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: process.env.WRS_FUZZ_RUNS ?? '1000' },
    seed: { type: 'string', default: process.env.WRS_FUZZ_SEED },
    routes: { type: 'string', default: process.env.WRS_FUZZ_ROUTES },
  },
});
if (!/^[1-9]\d*$/.test(values.runs)) {
  console.error(`--runs must be a positive integer, got ${values.runs}`);
  process.exit(2);
}
if (values.seed !== undefined && !/^-?\d+$/.test(values.seed)) {
  console.error(`--seed must be an integer, got ${values.seed}`);
  process.exit(2);
}
console.log(
  `fuzzing every route with ${values.runs} requests each${values.seed ? `, seed ${values.seed}` : ''}` +
    `${values.routes ? `, routes matching ${values.routes}` : ''}; ${process.env.WRS_TEST_PG_URL ? 'SQLite and PostgreSQL' : 'SQLite only (set WRS_TEST_PG_URL for PostgreSQL)'}`,
);
const result = spawnSync(process.execPath, ['--import', 'tsx', '--test', '--test-reporter=spec', 'test/hardening/property-input.test.ts'], {
  stdio: 'inherit',
  env: {
    ...process.env,
    NODE_ENV: 'test',
    WRS_FUZZ_RUNS: values.runs,
    ...(values.seed === undefined ? {} : { WRS_FUZZ_SEED: values.seed }),
    ...(values.routes === undefined ? {} : { WRS_FUZZ_ROUTES: values.routes }),
  },
});
process.exit(result.status ?? 1);
