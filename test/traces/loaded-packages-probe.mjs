// Loaded with `--import` into a `wrs serve` under test: when the process exits, writes the
// OpenTelemetry packages it loaded to the file named by WRS_TEST_LOADED_PACKAGES_FILE. The
// SDK and the instrumentations are CommonJS, so whatever loads them, they are in require.cache.
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const OBSERVABILITY_PACKAGE = /node_modules\/(@opentelemetry\/[\w-]+|@fastify\/otel|import-in-the-middle)\//;

process.on('exit', () => {
  const packages = new Set();
  for (const file of Object.keys(require.cache)) {
    const match = OBSERVABILITY_PACKAGE.exec(file);
    if (match) packages.add(match[1]);
  }
  writeFileSync(process.env.WRS_TEST_LOADED_PACKAGES_FILE, JSON.stringify([...packages].sort()));
});
