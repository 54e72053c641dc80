import { createReadStream, openSync, readSync, closeSync, statSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { createAppContext } from '../../app-context.js';
import { AppError } from '../../errors/app-error.js';
import type { JsonItemsFormat } from '../../lib/json-items.js';
import { UsageError, type CliCommand } from '../command.js';
import { cliConfig } from '../config-from-env.js';
import { createProgressBar } from '../progress.js';

/** A file whose first non-blank character is `[` is one JSON array; anything else is NDJSON. */
function detectFormat(path: string): JsonItemsFormat {
  const fd = openSync(path, 'r');
  try {
    const head = Buffer.alloc(4096);
    const read = readSync(fd, head, 0, head.length, 0);
    const first = head.subarray(0, read).toString('utf8').trimStart()[0];
    return first === '[' ? 'array' : 'ndjson';
  } finally {
    closeSync(fd);
  }
}

export const importEventsCommand: CliCommand = {
  name: 'import events',
  usage: 'wrs import events FILE --company C',
  summary: 'ingest events from an NDJSON or JSON-array file, in one transaction (straight to the database)',
  async run(argv) {
    const { values, positionals } = parseArgs({ args: argv, allowPositionals: true, options: { company: { type: 'string' } } });
    const [file, ...extra] = positionals;
    if (!file || extra.length > 0) throw new UsageError('name exactly one FILE (NDJSON, or a JSON array)');
    if (!values.company) throw new UsageError('--company is required');
    let size: number;
    try {
      size = statSync(file).size;
    } catch (error) {
      console.error(`cannot read ${file}: ${(error as Error).message}`);
      return 1;
    }
    const format = detectFormat(file);

    const { config } = cliConfig();
    const ctx = await createAppContext(config);
    const progress = createProgressBar(size, 'events');
    let bytes = 0;
    let ingested = 0;
    async function* counted(): AsyncGenerator<Buffer> {
      for await (const chunk of createReadStream(file!)) {
        bytes += (chunk as Buffer).length;
        progress.update(bytes, ingested);
        yield chunk as Buffer;
      }
    }
    const started = performance.now();
    try {
      const count = await ctx.events.ingest(values.company, counted(), {
        format,
        onProgress: (sofar) => {
          ingested = sofar;
          progress.update(bytes, ingested);
        },
      });
      progress.finish();
      const seconds = (performance.now() - started) / 1000;
      console.log(
        `imported ${count.toLocaleString('en-US')} events into company "${values.company}" in ${seconds.toFixed(1)} s ` +
          `(${Math.round(count / Math.max(seconds, 0.001)).toLocaleString('en-US')} events/s)`,
      );
      return 0;
    } catch (error) {
      progress.finish();
      if (error instanceof AppError) {
        console.error(`${file}: ${error.message}`);
        return 1;
      }
      throw error;
    } finally {
      await ctx.close();
    }
  },
};
