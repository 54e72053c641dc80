// The test files that take longest, longest first, as the time report at the end of a full run
// lists them (scripts/file-times-reporter.mjs). run-tests.mjs starts these before the others, so
// that the run does not end on one long file with the other process idle. A file missing here
// only starts in its place by name; a name that no longer matches a file is ignored.
export const SLOWEST_TEST_FILES = [
  'test/browser/console.test.ts',
  'test/browser/records-and-forms.test.ts',
  'test/bench/harness-smoke.test.ts',
  'test/deployment/service-package.test.ts',
  'test/deployment/replicas-behind-haproxy.test.ts',
  'test/pdf/worker-pool.test.ts',
  'test/hardening/fair-large-pages.test.ts',
  'test/pdf/templates.test.ts',
  'test/webhooks/bounded-answers.test.ts',
  'test/hardening/property-input.test.ts',
  'test/lifecycle/company-export.test.ts',
  'test/pdf/render-process.test.ts',
  'test/events/stream.test.ts',
  'test/hardening/durability.test.ts',
  'test/records/import.test.ts',
];
