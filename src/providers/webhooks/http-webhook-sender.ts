import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { isPublicAddress, literalAddress } from '../../domain/webhooks/public-address.js';
import { ANSWER_BODY_LIMIT_BYTES, type WebhookAnswer, type WebhookSender } from '../../domain/webhooks/webhook-sender.port.js';
import { answerText } from './answer-text.js';

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
 * address when the webhook was set and to a private one now (DNS rebinding) is refused. The
 * error does not name the address: the delivery's log would tell a company about the network
 * the service runs in.
 */
const publicOnlyLookup: LookupFunction = (hostname, options, callback) => {
  dnsLookup(hostname, { ...(options as LookupOptions), all: true }, (error, addresses: LookupAddress[]) => {
    if (error) return callback(error, '', 4);
    if (addresses.length === 0 || !addresses.every((entry) => isPublicAddress(entry.address))) {
      return callback(new RefusedAddressError(`${hostname} resolves to a non-public address: refused`), '', 4);
    }
    if ((options as LookupOptions).all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, addresses);
    return callback(null, addresses[0]!.address, addresses[0]!.family);
  });
};

/**
 * Sends over node:http(s) with keep-alive; a redirect is an answer like any other, never followed.
 * An attempt ends within its timeout whatever the receiver does, and reads at most
 * `ANSWER_BODY_LIMIT_BYTES` of the answer's body: the status decides the outcome, the body is
 * kept for the delivery's log, and a body cut short by either bound closes the socket.
 */
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
        let statusCode: number | undefined;
        const kept: Buffer[] = [];
        let received = 0;
        const done = (answer: WebhookAnswer) => {
          if (settled) return;
          settled = true;
          clearTimeout(deadline);
          resolve(answer);
        };
        const answered = () => {
          if (!settled) done({ statusCode: statusCode!, body: answerText(kept, ANSWER_BODY_LIMIT_BYTES) });
        };
        const request = (secure ? https : http).request(target, {
          method: 'POST',
          agent: secure ? httpsAgent : httpAgent,
          headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
          ...(lookup ? { lookup } : {}),
        });
        // One deadline for the whole exchange: connecting, the headers and the body read.
        const deadline = setTimeout(() => {
          request.destroy();
          if (statusCode === undefined) done({ error: `no answer within ${timeoutMs} ms` });
          else answered();
        }, timeoutMs);
        request.on('response', (response) => {
          statusCode = response.statusCode ?? 0;
          response.on('data', (chunk: Buffer) => {
            if (settled) return;
            const room = ANSWER_BODY_LIMIT_BYTES - received;
            if (room > 0) kept.push(chunk.length > room ? chunk.subarray(0, room) : chunk);
            received += chunk.length;
            // More than the limit: the rest is not read, and the socket is not reused.
            if (received > ANSWER_BODY_LIMIT_BYTES) {
              answered();
              request.destroy();
            }
          });
          // Only a body that ended within the bounds leaves the socket to the agent's pool.
          response.on('end', answered);
          response.on('close', answered);
          response.on('error', () => undefined);
        });
        request.on('error', (error: NodeJS.ErrnoException) => {
          if (statusCode !== undefined) return answered();
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
