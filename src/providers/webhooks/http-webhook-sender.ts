import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { isPublicAddress, literalAddress } from '../../domain/webhooks/public-address.js';
import type { WebhookAnswer, WebhookSender } from '../../domain/webhooks/webhook-sender.port.js';

export interface HttpWebhookSenderOptions {
  /** Allow loopback, private and other non-public addresses (development, tests). */
  readonly allowPrivateAddresses: boolean;
  /** Sockets kept per receiver host. */
  readonly maxSocketsPerHost: number;
}

class RefusedAddressError extends Error {
  readonly code = 'EWEBHOOKADDRESS';
}

/**
 * A lookup that refuses a host resolving to any non-public address. It runs when the socket
 * connects, so the address checked is the address used: a host that resolved to a public
 * address when the webhook was set and to a private one now (DNS rebinding) is refused.
 */
const publicOnlyLookup: LookupFunction = (hostname, options, callback) => {
  dnsLookup(hostname, { ...(options as LookupOptions), all: true }, (error, addresses: LookupAddress[]) => {
    if (error) return callback(error, '', 4);
    const refused = addresses.filter((entry) => !isPublicAddress(entry.address));
    if (addresses.length === 0 || refused.length > 0) {
      const listed = refused.map((entry) => entry.address).join(', ');
      return callback(new RefusedAddressError(`${hostname} resolves to a non-public address (${listed}): refused`), '', 4);
    }
    if ((options as LookupOptions).all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, addresses);
    return callback(null, addresses[0]!.address, addresses[0]!.family);
  });
};

/** Sends over node:http(s) with keep-alive; a redirect is an answer like any other, never followed. */
export function createHttpWebhookSender(options: HttpWebhookSenderOptions): WebhookSender {
  const agentOptions = { keepAlive: true, maxSockets: options.maxSocketsPerHost, scheduling: 'fifo' as const };
  const httpAgent = new http.Agent(agentOptions);
  const httpsAgent = new https.Agent(agentOptions);
  const lookup = options.allowPrivateAddresses ? undefined : publicOnlyLookup;

  return {
    send({ url, headers, body, timeoutMs }) {
      return new Promise<WebhookAnswer>((resolve) => {
        let target: URL;
        try {
          target = new URL(url);
        } catch {
          return resolve({ error: 'the webhook URL is not valid' });
        }
        const secure = target.protocol === 'https:';
        if (!secure && !options.allowPrivateAddresses) return resolve({ error: 'the webhook URL is not https: refused' });
        const literal = literalAddress(target.hostname);
        // A literal address is connected to without a lookup, so it is checked here.
        if (literal !== undefined && !options.allowPrivateAddresses && !isPublicAddress(literal)) {
          return resolve({ error: `${literal} is not a public address: refused` });
        }
        let settled = false;
        const done = (answer: WebhookAnswer) => {
          if (settled) return;
          settled = true;
          clearTimeout(timer);
          resolve(answer);
        };
        const request = (secure ? https : http).request(target, {
          method: 'POST',
          agent: secure ? httpsAgent : httpAgent,
          headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
          ...(lookup ? { lookup } : {}),
        });
        const timer = setTimeout(() => {
          done({ error: `no answer within ${timeoutMs} ms` });
          request.destroy();
        }, timeoutMs);
        request.on('response', (response) => {
          // The status is what counts; the body is read and dropped so the socket can be reused.
          response.resume();
          response.on('error', () => undefined);
          done({ statusCode: response.statusCode ?? 0 });
        });
        request.on('error', (error: NodeJS.ErrnoException) => {
          done({ error: error instanceof RefusedAddressError ? error.message : `request failed: ${error.code ?? error.message}` });
        });
        request.end(body);
      });
    },
    close() {
      httpAgent.destroy();
      httpsAgent.destroy();
    },
  };
}
