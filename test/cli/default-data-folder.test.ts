// Where the data lives when WRS_DATA_DIR is not set: never inside node_modules.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { it } from 'node:test';
import { dataSettings, defaultDataDir, INSTALL_ROOT } from '../../src/config/data-location.js';

const projects =
  (...withPackageJson: string[]) =>
  (path: string) =>
    withPackageJson.map((dir) => join(dir, 'package.json')).includes(path);

it('a checkout keeps its data in its own data/', () => {
  assert.equal(defaultDataDir('/home/ada/wrs/', projects()), '/home/ada/wrs/data');
  assert.equal(dataSettings({}, '/somewhere/else').data.dir, join(INSTALL_ROOT, 'data'), 'this checkout, from any folder');
});

it('wrs installed into a project keeps its data in the project, wherever it is nested', () => {
  assert.equal(defaultDataDir('/srv/service/node_modules/wrs/', projects('/srv/service')), '/srv/service/data');
  assert.equal(defaultDataDir('/srv/service/node_modules/tool/node_modules/wrs/', projects('/srv/service')), '/srv/service/data');
});

it('a global install (no project around node_modules) uses data/ in the current folder', () => {
  assert.equal(defaultDataDir('/usr/lib/node_modules/wrs/', projects()), 'data');
  assert.equal(defaultDataDir('/node_modules/wrs/', projects()), 'data');
  assert.equal(defaultDataDir('/node_modules/wrs/', projects('/')), '/data');
});
