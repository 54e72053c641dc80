// The staff console's pages in Chromium: one process and one browser for these suites, each of
// which starts its own service with the demo company (so none sees another's changes).
import { describe } from 'node:test';
import { oneDatabaseKind } from '../helpers/databases.js';
import { boardSuite } from './board.suite.js';
import { consoleShellSuite } from './console-shell.suite.js';
import { consoleWayfindingSuite } from './console-wayfinding.suite.js';
import { eventsExplorerSuite } from './events-explorer.suite.js';
import { shareAcrossSuites } from './harness.js';
import { recordsChecksSuite } from './records-checks.suite.js';
import { webhooksSuite } from './webhooks.suite.js';

const kind = oneDatabaseKind();

// Declared in this file (not in a helper), so that the run's time report names it.
describe(`the console in a browser [${kind}]`, () => {
  const shared = shareAcrossSuites();
  consoleShellSuite(kind, shared);
  consoleWayfindingSuite(kind, shared);
  recordsChecksSuite(kind, shared);
  boardSuite(kind, shared);
  eventsExplorerSuite(kind, shared);
  webhooksSuite(kind, shared);
});
