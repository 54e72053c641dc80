import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { runLoad } from '../../bench/lib/load.js';

// The harness's latencies are kept to the microsecond: autocannon's own histogram has whole
// milliseconds, which turned fast reads' p99/p50 into ratios of 1 ms steps.
describe('benchmark load latencies', () => {
  let server: Server;
  let url: string;
  before(async () => {
    server = createServer((_request, response) => {
      setTimeout(() => response.end('{"ok":true}'), 2);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  });
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('reports p50 and p99 to fractions of a millisecond, no shorter than the answers took', async () => {
    const result = await runLoad({ url, connections: 2, durationSeconds: 1 });
    assert.equal(result.errors, 0);
    assert.ok(result.requests > 20, `${result.requests} requests`);
    // A 2 ms timer counts from the event loop's clock, read in whole milliseconds before the request came.
    assert.ok(result.p50Ms >= 1, `p50 ${result.p50Ms} ms: each answer waits for a timer`);
    assert.ok(result.p99Ms >= result.p50Ms);
    const wholeMilliseconds = (ms: number) => Number.isInteger(ms);
    assert.ok(!(wholeMilliseconds(result.p50Ms) && wholeMilliseconds(result.p99Ms)), `p50 ${result.p50Ms}, p99 ${result.p99Ms}: fractions of a millisecond`);
  });
});
