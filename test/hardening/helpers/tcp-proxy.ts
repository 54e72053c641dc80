import { connect, createServer, type Server, type Socket } from 'node:net';

/**
 * How the proxy treats traffic:
 * - `open`: forwards both ways;
 * - `refuse`: not listening (connects fail with ECONNREFUSED), open connections are reset;
 * - `blackhole`: accepts connections and never answers, open connections are reset;
 * - `drop`: keeps every connection open but silently drops what is sent either way, like a
 *   network partition;
 * - `hold`: keeps every connection open and holds what is sent either way, delivering it in
 *   order when set back to `open`, like a server or network that stalls and then catches up.
 */
export type ProxyMode = 'open' | 'refuse' | 'blackhole' | 'drop' | 'hold';

/** A TCP proxy on 127.0.0.1 in front of a real server, which a test can cut and restore. */
export class TcpProxy {
  private server: Server | undefined;
  private readonly sockets = new Set<Socket>();
  private held: Array<() => void> = [];
  private mode: ProxyMode = 'open';
  port = 0;

  constructor(
    private readonly targetHost: string,
    private readonly targetPort: number,
  ) {}

  async start(): Promise<void> {
    await this.listen();
  }

  async set(mode: ProxyMode): Promise<void> {
    this.mode = mode;
    if (mode === 'refuse' || mode === 'blackhole') this.resetAll();
    if (mode === 'refuse') await this.unlisten();
    else await this.listen();
    if (mode === 'open') this.release();
  }

  async close(): Promise<void> {
    this.resetAll();
    await this.unlisten();
  }

  private resetAll(): void {
    for (const socket of this.sockets) socket.destroy();
    this.sockets.clear();
    this.held = [];
  }

  private release(): void {
    const held = this.held;
    this.held = [];
    for (const deliver of held) deliver();
  }

  private track(socket: Socket): void {
    this.sockets.add(socket);
    socket.on('close', () => this.sockets.delete(socket));
    socket.on('error', () => undefined);
  }

  private accept(client: Socket): void {
    this.track(client);
    if (this.mode === 'blackhole') return;
    const upstream = connect(this.targetPort, this.targetHost);
    this.track(upstream);
    const forward = (from: Socket, to: Socket) =>
      from.on('data', (chunk) => {
        if (this.mode === 'open') to.write(chunk);
        else if (this.mode === 'hold') this.held.push(() => to.write(chunk));
      });
    forward(client, upstream);
    forward(upstream, client);
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  }

  private async listen(): Promise<void> {
    if (this.server) return;
    const server = createServer((socket) => this.accept(socket));
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.port, '127.0.0.1', () => resolve());
    });
    this.port = (server.address() as { port: number }).port;
    this.server = server;
  }

  private async unlisten(): Promise<void> {
    const server = this.server;
    if (!server) return;
    this.server = undefined;
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}
