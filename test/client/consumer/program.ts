// A program of an integrator who installed the client's tarball: compiled under `tsc --strict`
// in a folder of its own (test/client/client-package.test.ts), then run against the service.
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createWrsClient, type Event, verifyWebhook, WebhookVerificationError, type WebhookPayload, type WrsRecord } from '@wrs/client';

function setting(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`set ${name}`);
  return value;
}

interface Delivery {
  body: string;
  headers: IncomingHttpHeaders;
}

/** A webhook receiver on a free port: answers 204 and hands over the raw bodies it receives. */
async function startReceiver(): Promise<{ url: string; next(): Promise<Delivery>; close(): void }> {
  const waiting: ((delivery: Delivery) => void)[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      res.writeHead(204).end();
      waiting.shift()?.({ body, headers: req.headers });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    next: () => new Promise((resolve) => waiting.push(resolve)),
    close: () => server.close(),
  };
}

const wrs = createWrsClient({ baseUrl: setting('BASE'), token: setting('TOKEN') });

const events = await wrs.GET('/v1/events', { params: { query: { limit: 2, order_by: '-created_at' } } });
if (events.error) throw new Error(`listEvents: ${events.error.code}`);
const latest: Event[] = events.data.results;
console.log(`events: ${latest.length} of ${events.data.count}`);

const receiver = await startReceiver();
const hook = await wrs.POST('/v1/webhooks', { body: { url: receiver.url, events: ['record.created'] } });
if (hook.error) throw new Error(`createWebhook: ${hook.error.code}: ${hook.error.message}`);
const delivered = receiver.next();

const created = await wrs.POST('/v1/records/{typeId}', {
  params: { path: { typeId: 'equipment-loan' } },
  body: { fld_borrower: 'Packaged Client', fld_amount: 900 },
});
if (created.error) throw new Error(`createRecord: ${created.error.code}: ${created.error.message}`);
const record: WrsRecord = created.data;
console.log(`created ${record.id} in views ${record.views.join(', ')}`);

const delivery = await delivered;
const payload: WebhookPayload = verifyWebhook(delivery.body, delivery.headers, hook.data.secret);
if (payload.type === 'record.created') {
  const sent: WrsRecord = payload.data;
  console.log(`verified ${payload.type} of ${sent.id}, fields ${JSON.stringify(sent.fields)}`);
}
try {
  verifyWebhook(delivery.body.replace('Packaged Client', 'Forged Client'), delivery.headers, hook.data.secret);
  console.log('a forged body verified');
} catch (error) {
  console.log(`a forged body: ${error instanceof WebhookVerificationError ? error.name : 'another error'}`);
}
receiver.close();

const missing = await wrs.GET('/v1/records/{record}', { params: { path: { record: 'no-such-record' } } });
console.log(`a missing record: ${missing.response.status} ${missing.error?.code}`);

// The types hold: these lines fail to compile unless tsc refuses each of them.
// @ts-expect-error: no such path
void wrs.GET('/v1/no-such-path');
// @ts-expect-error: limit is a number
void wrs.GET('/v1/events', { params: { query: { limit: 'two' } } });
// @ts-expect-error: a record has no field called borrower
void record.borrower;
