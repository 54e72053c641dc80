// Runs the test files named in its arguments with Node's test runner, two at a time, each in a
// process of its own, starting them in the order given (`node --test` sorts the files by name;
// `run()` keeps the caller's order, which scripts/run-tests.mjs chooses). run-tests.mjs names the
// files' transpiled copies in .test-build/ (scripts/test-build.mjs) and starts this script with
// `--enable-source-maps`, which the runner passes on to every file's process.
import { Transform } from 'node:stream';
import { run } from 'node:test';
import { spec } from 'node:test/reporters';
import fileTimes from './file-times-reporter.mjs';

const files = process.argv.slice(2);
const tests = run({ files, concurrency: 2 });
tests.on('test:fail', (event) => {
  if (!event.todo) process.exitCode = 1;
});

/** A file's transpiled copy named as its source: `.test-build/<pid>/test/a.test.js` as `test/a.test.ts`. */
const sourceName = (text) => text.replace(/\.test-build\/\d+\/(\S+?)\.js\b/g, '$1.ts');
// The runner names a file by the path it was given where it has no test to point at (a file
// that crashed before its tests ran, a whole file's time); source maps name the others.
const events = tests.pipe(
  new Transform({
    objectMode: true,
    transform(event, _encoding, done) {
      const { data } = event;
      if (data && (typeof data.name === 'string' || typeof data.file === 'string')) {
        const renamed = { ...data };
        if (typeof data.name === 'string') renamed.name = sourceName(data.name);
        if (typeof data.file === 'string') renamed.file = sourceName(data.file);
        done(null, { ...event, data: renamed });
      } else done(null, event);
    },
  }),
);
events.compose(new spec()).pipe(process.stdout);
events.compose(fileTimes).pipe(process.stdout);
