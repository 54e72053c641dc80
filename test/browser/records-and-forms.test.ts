// A record's page, the hosted form its links open, and the operator page that shapes both, in
// Chromium: one process and one browser for these suites, each of which starts its own service
// with the demo company (so none sees another's changes).
import { describe } from 'node:test';
import { oneDatabaseKind } from '../helpers/databases.js';
import { shareAcrossSuites } from './harness.js';
import { hostedFormOutsiderSuite } from './hosted-form-outsider.suite.js';
import { hostedFormSuite } from './hosted-form.suite.js';
import { operatorPageSuite } from './operator-page.suite.js';
import { recordPageSuite } from './record-page.suite.js';
import { stepPanelSuite } from './step-panel.suite.js';

const kind = oneDatabaseKind();

// Declared in this file (not in a helper), so that the run's time report names it.
describe(`records and forms in a browser [${kind}]`, () => {
  const shared = shareAcrossSuites();
  recordPageSuite(kind, shared);
  stepPanelSuite(kind, shared);
  hostedFormSuite(kind, shared);
  hostedFormOutsiderSuite(kind, shared);
  operatorPageSuite(kind, shared);
});
