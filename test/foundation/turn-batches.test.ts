import assert from 'node:assert/strict';
import { AsyncLocalStorage } from 'node:async_hooks';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, it } from 'node:test';
import { turnBatches } from '../../src/storage/sqlite-dialect.js';

describe('turnBatches', () => {
  it('runs the tasks asked for in one turn together, after that turn, in the order asked', async () => {
    const inTurn = turnBatches();
    const ran: string[] = [];
    const answers = [
      inTurn(() => {
        ran.push('a');
        return 1;
      }),
      inTurn(() => {
        ran.push('b');
        return 2;
      }),
    ];
    ran.push('caller goes on');
    assert.deepEqual(await Promise.all(answers), [1, 2]);
    assert.deepEqual(ran, ['caller goes on', 'a', 'b']);
  });

  it('runs every task of a batch before any caller goes on', async () => {
    const inTurn = turnBatches();
    const events: string[] = [];
    const first = inTurn(() => events.push('task 1')).then(() => events.push('caller 1'));
    const second = inTurn(() => events.push('task 2')).then(() => events.push('caller 2'));
    await Promise.all([first, second]);
    assert.deepEqual(events, ['task 1', 'task 2', 'caller 1', 'caller 2']);
  });

  it('fails only the caller whose task threw', async () => {
    const inTurn = turnBatches();
    const failing = inTurn(() => {
      throw new Error('no such table');
    });
    const fine = inTurn(() => 'rows');
    await assert.rejects(failing, /no such table/);
    assert.equal(await fine, 'rows');
  });

  it('runs a task asked for during a batch in a batch of its own', async () => {
    const inTurn = turnBatches();
    const batches: number[] = [];
    let batch = 0;
    const later = await inTurn(() => {
      batch += 1;
      batches.push(batch);
      return inTurn(() => batches.push(batch));
    });
    await later;
    assert.deepEqual(batches, [1, 1]);
    assert.equal(batch, 1, 'the second task ran after the first batch had ended');
  });

  it('answers requests that each wait for a task, a lone one in a batch of its own', async () => {
    const inTurn = turnBatches();
    const batchSizes: number[] = [];
    let current: number[] | undefined;
    const server: Server = createServer((_request, response) => {
      void inTurn(() => {
        if (!current) {
          current = [];
          batchSizes.push(0);
          setImmediate(() => (current = undefined));
        }
        batchSizes[batchSizes.length - 1]! += 1;
      }).then(() => response.end('ok'));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const get = () =>
      new Promise<string>((resolve, reject) => {
        request({ port, host: '127.0.0.1', agent: false }, (response) => {
          let body = '';
          response.on('data', (chunk) => (body += chunk));
          response.on('end', () => resolve(body));
        })
          .on('error', reject)
          .end();
      });
    try {
      assert.equal(await get(), 'ok');
      assert.deepEqual(batchSizes, [1]);
      const answers = await Promise.all(Array.from({ length: 20 }, get));
      assert.deepEqual(new Set(answers), new Set(['ok']));
      assert.equal(
        batchSizes.reduce((sum, size) => sum + size, 0),
        21,
      );
    } finally {
      server.close();
    }
  });

  it('leaves the async context of each caller to its own continuation', async () => {
    const inTurn = turnBatches();
    const store = new AsyncLocalStorage<string>();
    const seen = await Promise.all(
      ['first', 'second'].map((name) =>
        store.run(name, async () => {
          await inTurn(() => undefined);
          return store.getStore();
        }),
      ),
    );
    assert.deepEqual(seen, ['first', 'second']);
  });
});
