// Loaded with `--import` into a `wrs serve` under test: when the process exits, writes the
// CommonJS packages it loaded (whatever loaded them, they are in require.cache), by name, to the
// file named by WRS_TEST_LOADED_PACKAGES_FILE.
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const PACKAGE = /^node_modules\/((?:@[\w.-]+\/)?[\w.-]+)\//;

process.on('exit', () => {
  const packages = new Set();
  for (const file of Object.keys(require.cache)) {
    const match = PACKAGE.exec(file.slice(file.lastIndexOf('node_modules/')));
    if (match) packages.add(match[1]);
  }
  writeFileSync(process.env.WRS_TEST_LOADED_PACKAGES_FILE, JSON.stringify([...packages].sort()));
});
