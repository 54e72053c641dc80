// `npm ci` prints no engine warning on any supported Node: every package it installs there
// admits that Node. Optional packages are left out: npm skips one whose engines do not match.
// So are the packages listed here, which only a browser bundle runs (docs/development.md).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import semver from 'semver';

interface LockedPackage {
  optional?: boolean;
  engines?: { node?: string };
}

/** Packages that Node never loads: vite bundles them into a page, and only the browser runs them. */
const BROWSER_ONLY = new Map([['clawpdf', "PDFium as WebAssembly, in @pdfme/ui's designer bundle (web/operator)"]]);

const root = new URL('../../', import.meta.url);
const manifest = JSON.parse(readFileSync(new URL('package.json', root), 'utf8')) as { engines: { node: string } };
const lock = JSON.parse(readFileSync(new URL('package-lock.json', root), 'utf8')) as { packages: Record<string, LockedPackage> };

/** The oldest release of each Node line the project supports: `^20.19.0 || ...` gives 20.19.0, ... */
const oldestSupported = new semver.Range(manifest.engines.node).set.map(
  (comparators) => semver.minVersion(new semver.Range(comparators.map(String).join(' ')))!.version,
);

describe('supported Node versions', () => {
  it('are the 20, 22 and 24 lines, and include the Node running the tests', () => {
    assert.deepEqual(
      oldestSupported.map((version) => semver.major(version)),
      [20, 22, 24],
    );
    assert.ok(semver.satisfies(process.versions.node, manifest.engines.node), `Node ${process.versions.node} is not in ${manifest.engines.node}`);
  });

  for (const version of oldestSupported) {
    it(`every package npm ci installs on Node ${version} admits it`, () => {
      const refusing = Object.entries(lock.packages)
        .filter(([path, pkg]) => path !== '' && !pkg.optional && pkg.engines?.node && !semver.satisfies(version, pkg.engines.node))
        .filter(([path]) => !BROWSER_ONLY.has(path.replace(/^.*node_modules\//, '')))
        .map(([path, pkg]) => `${path.replace(/^.*node_modules\//, '')} needs node ${pkg.engines!.node}`);
      assert.deepEqual(refusing, []);
    });
  }
});
