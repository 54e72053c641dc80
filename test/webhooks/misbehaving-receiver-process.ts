// The misbehaving receivers, run apart from the service by `startReceiverProcess`: it says their
// URLs once started, and answers each 'state' message with every receiver's connections.
import { MISBEHAVIOURS, startMisbehavingReceiver, type Misbehaviour, type MisbehavingReceiver, type ReceiverState } from './misbehaving-receiver.js';

const receivers = new Map<Misbehaviour, MisbehavingReceiver>();
for (const behaviour of MISBEHAVIOURS) receivers.set(behaviour, await startMisbehavingReceiver(behaviour));
process.send!(Object.fromEntries([...receivers].map(([behaviour, receiver]) => [behaviour, receiver.url])));
process.on('message', () => {
  const state = Object.fromEntries(
    [...receivers].map(([behaviour, receiver]): [Misbehaviour, ReceiverState] => [
      behaviour,
      { url: receiver.url, connections: receiver.connections, open: receiver.open() },
    ]),
  );
  process.send!(state);
});
process.on('SIGTERM', () => process.exit(0));
process.on('disconnect', () => process.exit(0));
