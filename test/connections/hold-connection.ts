import { connect, type Socket } from 'node:net';

/** A connection that sends nothing: it holds one of a listener's connection places until destroyed. */
export async function holdConnection(port: number): Promise<Socket> {
  const socket = connect({ port, host: '127.0.0.1' });
  socket.on('error', () => undefined);
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  return socket;
}
