// Hostile webhook receivers, run as their own process by bench/lib/fairness.ts so that what it
// costs to stream is not counted in the harness's own latencies:
//   POST /endless  answers 200, then streams its body for as long as the socket stays open;
//   POST /hanging  reads the request and never answers.
// It prints its port as one JSON line. GET /stats answers how many deliveries came and how many
// bytes were streamed; POST /cut closes every connection the attacks hold.
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

const CHUNK = Buffer.alloc(64 * 1024, 'x');
let deliveries = 0;
let bytesSent = 0;
const attackSockets = new Set<Socket>();

function streamForever(response: http.ServerResponse): void {
  const pump = () => {
    while (!response.destroyed) {
      bytesSent += CHUNK.length;
      if (!response.write(CHUNK)) {
        response.once('drain', pump);
        return;
      }
    }
  };
  pump();
}

const server = http.createServer((request, response) => {
  response.on('error', () => {});
  if (request.url === '/stats') {
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ deliveries, bytesSent }));
    return;
  }
  if (request.url === '/cut') {
    for (const socket of attackSockets) socket.destroy();
    attackSockets.clear();
    [deliveries, bytesSent] = [0, 0];
    response.writeHead(204).end();
    return;
  }
  attackSockets.add(request.socket);
  request.socket.once('close', () => attackSockets.delete(request.socket));
  request.resume();
  request.on('end', () => {
    deliveries++;
    if (request.url !== '/endless') return;
    response.writeHead(200, { 'content-type': 'text/plain' });
    streamForever(response);
  });
});
server.requestTimeout = 0;
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`${JSON.stringify({ port: (server.address() as AddressInfo).port })}\n`);
});
