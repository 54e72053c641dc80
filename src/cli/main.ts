#!/usr/bin/env node
import { startTracingWhenEnabled } from '../observability/tracing/process-tracing.js';
import { tracingOfThisProcess } from './serve/tracing-choice.js';

// Tracing starts before the commands are imported: an instrumentation patches `pg` as it loads.
const argv = process.argv.slice(2);
await startTracingWhenEnabled(tracingOfThisProcess(argv, process.env));
const { runCommand } = await import('./run-command.js');

runCommand(argv).then(
  (code) => {
    if (code !== 0) process.exit(code);
  },
  (error: unknown) => {
    console.error(error instanceof Error ? (error.stack ?? error.message) : error);
    process.exit(1);
  },
);
