// The layer rules of docs/architecture.md, checked by test/foundation/layers.test.ts.
// Layers: cli -> http -> app-context -> domain <- storage, providers, metrics. Every arrow points at
// the domain; only the composition root (src/app-context.ts) and the CLI see implementations.
// src/fast-path/ is the one seam of the speed machinery: built by the root, its interface seen by HTTP.
// src/lifecycle-thread/ builds the lifecycle services for the root and for the thread that runs their jobs.
// Type-only imports count (tsPreCompilationDeps): a type is a dependency too.

const APP_LAYERS = '^src/(contracts|domain|storage|providers|observability|http|cli|config)/|^src/app-context[.]ts$';
const OUTER_LAYERS = '^src/(http|cli)/|^src/app-context[.]ts$';
const ADAPTERS = '^src/(storage|providers|observability/metrics)/';
// Packages that belong to an adapter or to HTTP: the database drivers and query builder, the
// web framework, the worker pool, the PDF library and the metrics library. @types/* are their declarations.
const ADAPTER_PACKAGES =
  '(^|/)node_modules/(@types/)?(kysely|pg|better-sqlite3|better-sqlite3-13|fastify|piscina|prom-client|@fastify/[^/]+|@pdfme/[^/]+)/';

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'domain-imports-no-adapter',
      comment: 'The domain owns its models and ports; storage and providers implement them, not the reverse.',
      severity: 'error',
      from: { path: '^src/domain/' },
      to: { path: `${ADAPTERS}|${OUTER_LAYERS}` },
    },
    {
      name: 'domain-imports-no-adapter-package',
      comment: 'The domain speaks no SQL, HTTP, worker pool or PDF library: those live behind its ports.',
      severity: 'error',
      from: { path: '^src/domain/' },
      to: { path: ADAPTER_PACKAGES },
    },
    {
      name: 'domain-imports-no-telemetry',
      comment: 'Tracing observes the adapters and HTTP from outside (src/observability/); the domain never sees it.',
      severity: 'error',
      from: { path: '^src/domain/' },
      to: { path: '(^|/)node_modules/(@opentelemetry/[^/]+|@fastify/otel)/|^src/observability/' },
    },
    {
      name: 'adapters-import-no-outer-layer',
      comment: 'Storage and providers depend on the domain, lib, errors and config, never on HTTP, the CLI or the root.',
      severity: 'error',
      from: { path: ADAPTERS },
      to: { path: OUTER_LAYERS },
    },
    {
      name: 'providers-import-no-storage',
      comment: 'A provider that needs storage asks for a domain port; the composition root passes the implementation.',
      severity: 'error',
      from: { path: '^src/providers/' },
      to: { path: '^src/storage/' },
    },
    {
      name: 'storage-imports-no-provider',
      comment: 'Models shared by storage and a provider belong to the domain, not to either of them.',
      severity: 'error',
      from: { path: '^src/storage/' },
      to: { path: '^src/providers/' },
    },
    {
      name: 'metrics-import-no-other-adapter',
      comment: 'Metrics implement the domain observer ports; figures of storage or a provider reach them through the composition root.',
      severity: 'error',
      from: { path: '^src/observability/metrics/' },
      to: { path: '^src/(storage|providers)/' },
    },
    {
      name: 'metrics-package-only-in-metrics',
      comment: 'prom-client stays behind the observer ports: the rest of the code reports through them.',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/observability/metrics/' },
      to: { path: '(^|/)node_modules/prom-client/' },
    },
    {
      name: 'http-imports-no-adapter',
      comment: 'Routes reach storage and providers only through the app context and the domain ports.',
      severity: 'error',
      from: { path: '^src/http/' },
      to: { path: ADAPTERS },
    },
    {
      name: 'cli-imports-no-adapter',
      comment: 'The CLI builds what it runs through the app context, like the HTTP server.',
      severity: 'error',
      from: { path: '^src/cli/' },
      to: { path: ADAPTERS },
    },
    {
      name: 'contracts-import-no-adapter-nor-outer-layer',
      comment: 'Request contracts are shared by HTTP and the CLI, so they import neither, nor any implementation.',
      severity: 'error',
      from: { path: '^src/contracts/' },
      to: { path: `${ADAPTERS}|${OUTER_LAYERS}` },
    },
    {
      name: 'lib-and-errors-are-leaves',
      comment: 'lib/ and errors/ are used by every layer, so they import none of them.',
      severity: 'error',
      from: { path: '^src/(lib|errors)/' },
      to: { path: APP_LAYERS },
    },
    {
      name: 'config-imports-no-app-layer',
      comment: 'Config is parsed once at boot and handed inward; it knows no layer.',
      severity: 'error',
      from: { path: '^src/config/' },
      to: { path: '^src/(domain|storage|providers|observability|http|cli)/|^src/app-context[.]ts$' },
    },
    {
      name: 'fast-path-is-one-seam',
      comment:
        'What exists only for speed sits behind src/fast-path/: the composition root builds it, and HTTP sees only its interface (fast-path.ts); nothing else reaches into it.',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/(fast-path/|app-context[.]ts$)' },
      to: { path: '^src/fast-path/', pathNot: '^src/fast-path/fast-path[.]ts$' },
    },
    {
      name: 'fast-path-imports-no-outer-layer',
      comment: 'The fast path answers for the plain path below HTTP: it imports neither HTTP, the CLI nor the root.',
      severity: 'error',
      from: { path: '^src/fast-path/' },
      to: { path: OUTER_LAYERS },
    },
    {
      name: 'lifecycle-thread-is-built-by-the-root',
      comment:
        'src/lifecycle-thread/ builds the lifecycle services (for the root and for the thread that runs their jobs on SQLite); only the root uses it.',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/(lifecycle-thread/|app-context[.]ts$)' },
      to: { path: '^src/lifecycle-thread/' },
    },
    {
      name: 'lifecycle-thread-imports-no-outer-layer',
      comment: 'The lifecycle thread runs jobs below HTTP: it imports neither HTTP, the CLI nor the root.',
      severity: 'error',
      from: { path: '^src/lifecycle-thread/' },
      to: { path: OUTER_LAYERS },
    },
    {
      name: 'no-cycles',
      comment: 'A cycle makes two modules one; break it by moving the shared type inward.',
      severity: 'error',
      from: { path: '^src/' },
      to: { circular: true },
    },
    {
      name: 'no-unresolvable',
      comment: 'An import the checker cannot resolve would escape every rule above.',
      severity: 'error',
      from: { path: '^src/' },
      to: { couldNotResolve: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    // node_modules is a symlink in worktrees: keep the package paths as written.
    preserveSymlinks: true,
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.d.ts', '.js', '.mjs', '.cjs', '.json'],
      mainFields: ['module', 'main', 'types', 'typings'],
    },
  },
};
