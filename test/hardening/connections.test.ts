import assert from 'node:assert/strict';
import { connect, type Socket } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

/** Generous under a loaded machine; far below the request timeout of these servers (10 minutes). */
const PROMPTLY_MS = 5_000;

interface Connection {
  readonly socket: Socket;
  /** Everything the server sent, once it closed the connection. */
  readonly closed: Promise<string>;
  received(): string;
}

/** Every connection the tests opened, destroyed before each server closes (it waits for them). */
const opened = new Set<Socket>();
const closeAll = (): void => {
  for (const socket of opened) socket.destroy();
  opened.clear();
};

/** A TCP connection to the server from a given local address (127.0.0.x: another client). */
async function open(port: number, from: string): Promise<Connection> {
  const socket = connect({ port, host: '127.0.0.1', localAddress: from });
  opened.add(socket);
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  let received = '';
  socket.setEncoding('utf8').on('data', (chunk: string) => (received += chunk));
  socket.on('error', () => undefined);
  const closed = new Promise<string>((resolve) => socket.once('close', () => resolve(received)));
  return { socket, closed, received: () => received };
}

function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout;
  return Promise.race([
    promise.finally(() => clearTimeout(timer)),
    new Promise<T>((_resolve, reject) => {
      timer = setTimeout(() => reject(new Error(`${what}: not within ${ms} ms`)), ms);
    }),
  ]);
}

/** One GET on a fresh connection from `from`; resolves with the status line. */
async function served(port: number, from: string, path = '/healthz'): Promise<string> {
  const connection = await open(port, from);
  connection.socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`);
  const answer = await within(connection.closed, PROMPTLY_MS, `GET ${path} from ${from}`);
  return answer.split('\r\n')[0]!;
}

async function listening(env: Record<string, string>): Promise<{ t: TestApp; port: number }> {
  const t = await createTestApp('sqlite', { env: { WRS_CONNECTION_TIMEOUT_MS: '0', ...env } });
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  return { t, port: (t.app.server.address() as { port: number }).port };
}

describe('open connections per client address', () => {
  let t: TestApp;
  let port: number;
  before(
    async () => {
      ({ t, port } = await listening({ WRS_MAX_CONNECTIONS_PER_ADDRESS: '4' }));
    },
    { timeout: 60_000 },
  );
  after(
    async () => {
      closeAll();
      await t.close();
    },
    { timeout: 60_000 },
  );

  it('refuses a client beyond its share while another client is served', { timeout: 60_000 }, async () => {
    const held = await Promise.all(Array.from({ length: 4 }, () => open(port, '127.0.0.2')));
    // The share is counted as the server accepts: let it accept the four first.
    assert.equal(await served(port, '127.0.0.3'), 'HTTP/1.1 200 OK');

    const extra = await open(port, '127.0.0.2');
    extra.socket.write('GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
    const refused = await within(extra.closed, PROMPTLY_MS, 'the fifth connection closed');
    assert.doesNotMatch(refused, /200 OK/, 'nothing of a refused connection is served');
    if (refused !== '') assert.match(refused, /^HTTP\/1\.1 503 [\s\S]*too many open connections from this client address/);

    // The other client is served while the first still holds its share.
    assert.equal(await served(port, '127.0.0.3'), 'HTTP/1.1 200 OK');
    assert.ok(held.every((connection) => !connection.socket.destroyed));

    // A connection given back frees a place in the share.
    held[0]!.socket.destroy();
    await held[0]!.closed;
    await new Promise((resolve) => setTimeout(resolve, 100));
    assert.equal(await served(port, '127.0.0.2'), 'HTTP/1.1 200 OK');
    for (const connection of held) connection.socket.destroy();
  });
});

describe('open connections in all', () => {
  it('closes connections beyond WRS_MAX_CONNECTIONS', { timeout: 60_000 }, async () => {
    const { t, port } = await listening({ WRS_MAX_CONNECTIONS: '3', WRS_MAX_CONNECTIONS_PER_ADDRESS: '0' });
    try {
      const held = await Promise.all(['127.0.0.4', '127.0.0.5', '127.0.0.6'].map((from) => open(port, from)));
      assert.equal(t.app.server.maxConnections, 3);
      const extra = await open(port, '127.0.0.7');
      extra.socket.write('GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
      assert.equal(await within(extra.closed, PROMPTLY_MS, 'the fourth connection closed'), '');
      for (const connection of held) connection.socket.destroy();
    } finally {
      closeAll();
      await t.close();
    }
  });
});

describe('a request answered before its body arrived', () => {
  let t: TestApp;
  let port: number;
  before(
    async () => {
      ({ t, port } = await listening({ WRS_BODY_LIMIT_BYTES: '1024' }));
    },
    { timeout: 60_000 },
  );
  after(
    async () => {
      closeAll();
      await t.close();
    },
    { timeout: 60_000 },
  );

  /** Sends the head and a first byte, then one byte every 100 ms, until the server closes the connection. */
  async function trickle(head: string): Promise<string> {
    const connection = await open(port, '127.0.0.8');
    connection.socket.write(`${head}{`);
    const dripping = setInterval(() => connection.socket.writable && connection.socket.write(' '), 100);
    try {
      return await within(connection.closed, PROMPTLY_MS, 'the connection closed after the early answer');
    } finally {
      clearInterval(dripping);
      connection.socket.destroy();
    }
  }

  it('a 401 has Connection: close and its socket is closed while the body still trickles', { timeout: 60_000 }, async () => {
    const answer = await trickle('POST /v1/records/loan HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n');
    assert.match(answer, /^HTTP\/1\.1 401 /);
    assert.match(answer, /\r\nconnection: close\r\n/i);
  });

  it('so is a 413 answered from the declared length', { timeout: 60_000 }, async () => {
    const token = await t.userToken('acme');
    const answer = await trickle(
      `POST /v1/records/loan HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${token}\r\n` +
        'Content-Type: application/json\r\nContent-Length: 100000\r\n\r\n',
    );
    assert.match(answer, /^HTTP\/1\.1 413 /);
    assert.match(answer, /\r\nconnection: close\r\n/i);
  });

  it('a request whose body arrived keeps its connection', { timeout: 60_000 }, async () => {
    const connection = await open(port, '127.0.0.9');
    const body = '{"f_amount": 1}';
    connection.socket.write(
      `POST /v1/records/loan HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`,
    );
    await new Promise((resolve) => setTimeout(resolve, 500));
    assert.match(connection.received(), /^HTTP\/1\.1 401 /);
    assert.doesNotMatch(connection.received(), /connection: close/i);
    assert.equal(connection.socket.destroyed, false);
    connection.socket.destroy();
  });
});
