// A test reporter that adds up, per test file, the time of its top-level tests and suites, and
// after the run prints the slowest files: the place to look when the suite grows slow.
// A suite declared through a helper (test/helpers/databases.ts runs one per database) names the
// helper as its file, so it is counted for the file of the tests it just reported.
export default async function* fileTimes(source) {
  const times = new Map();
  let lastTestFile;
  for await (const event of source) {
    if (event.type !== 'test:pass' && event.type !== 'test:fail') continue;
    const { nesting, file, details } = event.data;
    if (!file) continue;
    const helper = file.includes('/test/helpers/');
    if (!helper) lastTestFile = file;
    if (nesting !== 0) continue;
    const owner = helper ? (lastTestFile ?? file) : file;
    times.set(owner, (times.get(owner) ?? 0) + (details.duration_ms ?? 0));
  }
  const files = [...times].sort((a, b) => b[1] - a[1]);
  const total = files.reduce((sum, [, ms]) => sum + ms, 0);
  yield `\nslowest test files (time in their tests; ${(total / 1000).toFixed(0)} s over ${files.length} files):\n`;
  for (const [file, ms] of files.slice(0, Number(process.env.WRS_TEST_SLOWEST ?? 15))) {
    yield `${(ms / 1000).toFixed(1).padStart(7)} s  ${file.replace(`${process.cwd()}/`, '')}\n`;
  }
}
