import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import { TEST_ADMIN_TOKEN } from '../helpers/test-app.js';
import { httpRequest } from './helpers/http.js';
import { connectOutcome, openRaw, sleep, startServer, type ServerProcess } from './helpers/server-process.js';

const listening = (line: { msg?: string }) => String(line.msg).startsWith('Server listening');

/** A token request whose body is only half sent: in flight until the rest arrives. */
function halfSentTokenRequest(requestId: string) {
  const body = JSON.stringify({ company_id: 'acme', user_id: 'u1', expires_in: 60 });
  const head =
    'POST /admin/v1/tokens HTTP/1.1\r\n' +
    'Host: 127.0.0.1\r\n' +
    `Authorization: Bearer ${TEST_ADMIN_TOKEN}\r\n` +
    'Content-Type: application/json\r\n' +
    `Content-Length: ${Buffer.byteLength(body)}\r\n` +
    `X-Request-Id: ${requestId}\r\n\r\n`;
  const cut = Math.floor(body.length / 2);
  return { start: head + body.slice(0, cut), rest: body.slice(cut) };
}

describe('graceful shutdown of `wrs serve` (real process)', () => {
  let server: ServerProcess | undefined;
  afterEach(async () => {
    await server?.dispose();
    server = undefined;
  });

  it('on SIGTERM stops accepting, finishes the request in flight, closes the database and exits 0', { timeout: 120_000 }, async () => {
    server = await startServer({ WRS_SHUTDOWN_TIMEOUT_MS: '20000' });
    await server.waitForLog(listening, 'the server to listen');

    const inFlight = await openRaw(server.port);
    const request = halfSentTokenRequest('in-flight-1');
    inFlight.write(request.start);
    await server.waitForLog((line) => line.reqId === 'in-flight-1' && line.msg === 'incoming request', 'the request to arrive');

    server.child.kill('SIGTERM');
    await server.waitForLog((line) => String(line.msg).startsWith('shutting down'), 'the shutdown to start');
    let refused: string | null = null;
    for (let attempt = 0; attempt < 100 && refused === null; attempt++) {
      refused = await connectOutcome(server.port);
      if (refused === null) await sleep(50);
    }
    // A connection that reached the kernel's accept queue just as the listener closed is reset
    // instead of refused: either way it is not served.
    assert.ok(refused === 'ECONNREFUSED' || refused === 'ECONNRESET', `new connections are refused once shutting down (${refused})`);
    assert.equal(server.child.exitCode, null, 'the process waits for the request in flight');

    inFlight.write(request.rest);
    const response = await inFlight.closed;
    assert.match(response, /^HTTP\/1\.1 201 /);
    assert.match(response, /\r\nconnection: close\r\n/i);
    assert.match(response, /"token":"ey/);

    const { code, signal } = await server.exited;
    assert.deepEqual({ code, signal }, { code: 0, signal: null });
    assert.ok(server.logs.some((line) => line.msg === 'stopped' && line.clean === true));
    assert.ok(
      server.logs.some((line) => line.reqId === 'in-flight-1' && line.msg === 'request completed'),
      'the request completed before the process stopped',
    );
  });

  it('cuts requests still in flight at WRS_SHUTDOWN_TIMEOUT_MS and exits 1', { timeout: 120_000 }, async () => {
    server = await startServer({ WRS_SHUTDOWN_TIMEOUT_MS: '500' });
    await server.waitForLog(listening, 'the server to listen');
    const stuck = await openRaw(server.port);
    stuck.write(halfSentTokenRequest('stuck-1').start);
    await server.waitForLog((line) => line.reqId === 'stuck-1' && line.msg === 'incoming request', 'the request to arrive');

    server.child.kill('SIGINT');
    const { code } = await server.exited;
    assert.equal(code, 1, 'a shutdown that had to cut connections is not reported clean');
    assert.doesNotMatch(await stuck.closed, /HTTP\/1\.1 201/);
    assert.ok(server.logs.some((line) => String(line.msg).startsWith('shutdown bound reached')));
  });

  it('with WRS_SHUTDOWN_DRAIN_MS, leaves the rotation first: /readyz answers 503 while requests are still served, then it closes', {
    timeout: 120_000,
  }, async () => {
    server = await startServer({ WRS_SHUTDOWN_DRAIN_MS: '3000', WRS_SHUTDOWN_TIMEOUT_MS: '5000' });
    await server.waitForLog(listening, 'the server to listen');
    assert.equal((await httpRequest(server.port, 'GET', '/readyz')).status, 200);

    server.child.kill('SIGTERM');
    await server.waitForLog((line) => String(line.msg).startsWith('shutting down: out of rotation'), 'the drain to start');
    const readiness = await httpRequest(server.port, 'GET', '/readyz');
    assert.equal(readiness.status, 503);
    assert.equal(readiness.json().code, 'service_unavailable');
    assert.match(readiness.json().message, /shutting down/);
    assert.equal((await httpRequest(server.port, 'GET', '/healthz')).status, 200, 'liveness still answers');
    const served = await httpRequest(server.port, 'POST', '/admin/v1/tokens', {
      headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` },
      body: { company_id: 'acme', user_id: 'u1', expires_in: 60 },
    });
    assert.equal(served.status, 201, 'requests are still served while out of rotation');
    assert.equal(server.child.exitCode, null);

    const { code, signal } = await server.exited;
    assert.deepEqual({ code, signal }, { code: 0, signal: null });
    const order = server.logs.map((line) => String(line.msg)).filter((msg) => msg.startsWith('shutting down'));
    assert.deepEqual(order, ['shutting down: out of rotation (/readyz 503), still serving', 'shutting down: draining in-flight requests']);
  });
});
