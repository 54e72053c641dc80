import { fork } from 'node:child_process';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { siblingModule } from '../../src/lib/module-thread.js';
import { childNodeFlags } from '../helpers/project-root.js';

/**
 * How a receiver misbehaves once it has the request:
 * - `slow-headers`: starts the status line, then one header line every 50 ms, never ending them;
 * - `trickled-body`: answers 200 at once, then one byte of body ("a") every 50 ms, forever;
 * - `endless-body`: answers 200 (chunked), then writes "x" as fast as the connection takes it, forever;
 * - `huge-body`: answers 200 with a 512 MiB Content-Length of bytes 0..255 over and over (NUL and invalid UTF-8 included);
 * - `never-closes`: answers 200 with a Content-Length of 1000, sends "ok" and holds the connection open.
 */
export const MISBEHAVIOURS = ['slow-headers', 'trickled-body', 'endless-body', 'huge-body', 'never-closes'] as const;
export type Misbehaviour = (typeof MISBEHAVIOURS)[number];

/** One connection as the receiver saw it. */
export interface Connection {
  readonly openedAt: number;
  closedAt: number | undefined;
  /** Bytes of answer the receiver handed to the connection (what the kernel accepted). */
  bytesWritten: number;
}

export interface MisbehavingReceiver {
  readonly url: string;
  readonly connections: Connection[];
  /** Connections not closed yet. */
  open(): number;
  close(): Promise<void>;
}

const HUGE_BYTES = 512 * 1024 * 1024;
const BLOCK = 64 * 1024;
const PATTERN = Buffer.from(Array.from({ length: BLOCK }, (_, i) => i % 256));
const XS = Buffer.alloc(BLOCK, 'x');

/** A raw TCP receiver, so that it can do what no well-behaved HTTP server does. */
export async function startMisbehavingReceiver(behaviour: Misbehaviour): Promise<MisbehavingReceiver> {
  const connections: Connection[] = [];
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    const connection: Connection = { openedAt: Date.now(), closedAt: undefined, bytesWritten: 0 };
    connections.push(connection);
    sockets.add(socket);
    const timers: NodeJS.Timeout[] = [];
    socket.on('error', () => undefined);
    socket.on('close', () => {
      connection.closedAt = Date.now();
      sockets.delete(socket);
      timers.forEach(clearInterval);
    });
    const write = (chunk: Buffer | string): boolean => {
      if (socket.destroyed) return false;
      connection.bytesWritten += Buffer.byteLength(chunk);
      return socket.write(chunk);
    };
    /** Writes blocks as fast as the connection takes them, up to `total` bytes. */
    const flood = (block: Buffer, total: number, frame: (block: Buffer) => Buffer = (b) => b) => {
      let sent = 0;
      const more = () => {
        while (!socket.destroyed && sent < total) {
          const piece = block.subarray(0, Math.min(block.length, total - sent));
          sent += piece.length;
          if (!write(frame(piece))) return void socket.once('drain', more);
        }
      };
      more();
    };
    let request = '';
    socket.on('data', function answer(chunk: Buffer) {
      request += chunk.toString('latin1');
      if (!request.includes('\r\n\r\n')) return;
      socket.off('data', answer);
      // The rest of the request is read and dropped, so that only the answer decides what happens.
      socket.resume();
      switch (behaviour) {
        case 'slow-headers':
          write('HTTP/1.1 200 OK\r\n');
          timers.push(setInterval(() => write('x-still-coming: yes\r\n'), 50));
          break;
        case 'trickled-body':
          write('HTTP/1.1 200 OK\r\ncontent-type: text/plain\r\ntransfer-encoding: chunked\r\n\r\n');
          timers.push(setInterval(() => write('1\r\na\r\n'), 50));
          break;
        case 'endless-body':
          write('HTTP/1.1 200 OK\r\ncontent-type: text/plain\r\ntransfer-encoding: chunked\r\n\r\n');
          flood(XS, Number.POSITIVE_INFINITY, (block) => Buffer.concat([Buffer.from(`${block.length.toString(16)}\r\n`), block, Buffer.from('\r\n')]));
          break;
        case 'huge-body':
          write(`HTTP/1.1 200 OK\r\ncontent-type: application/octet-stream\r\ncontent-length: ${HUGE_BYTES}\r\n\r\n`);
          flood(PATTERN, HUGE_BYTES);
          break;
        case 'never-closes':
          write('HTTP/1.1 200 OK\r\ncontent-type: text/plain\r\ncontent-length: 1000\r\n\r\nok');
          break;
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/${behaviour}`,
    connections,
    open: () => sockets.size,
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** What the receivers' process tells of each receiver. */
export interface ReceiverState {
  readonly url: string;
  readonly connections: Connection[];
  readonly open: number;
}

export interface ReceiverProcess {
  readonly urls: Readonly<Record<Misbehaviour, string>>;
  /** Each receiver's connections so far. */
  state(): Promise<Record<Misbehaviour, ReceiverState>>;
  close(): Promise<void>;
}

/**
 * Every kind of receiver, in a process of its own: an attacker's receivers run elsewhere, so the
 * CPU they spend writing is not spent on the service's event loop.
 */
export async function startReceiverProcess(): Promise<ReceiverProcess> {
  const child = fork(siblingModule(import.meta.url, 'misbehaving-receiver-process'), {
    execArgv: childNodeFlags(import.meta.url),
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const waiting: Array<{ resolve: (message: any) => void; reject: (error: Error) => void }> = [];
  child.on('message', (message) => waiting.shift()?.resolve(message));
  child.on('exit', (code) => {
    for (const { reject } of waiting.splice(0)) reject(new Error(`the receivers' process exited (${code})`));
  });
  const next = () => new Promise<any>((resolve, reject) => waiting.push({ resolve, reject }));
  const urls = (await next()) as Record<Misbehaviour, string>;
  return {
    urls,
    async state() {
      const answer = next();
      child.send('state');
      return (await answer) as Record<Misbehaviour, ReceiverState>;
    },
    async close() {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill();
      await exited;
    },
  };
}
