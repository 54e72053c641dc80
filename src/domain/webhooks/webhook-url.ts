import { invalidBody } from '../../errors/app-error.js';
import type { AddressResolver } from './address-resolver.port.js';
import { isPublicAddress, literalAddress } from './public-address.js';

export const MAX_URL_LENGTH = 2000;

/**
 * Checks a webhook URL when it is set: https only, and a host that resolves to public addresses
 * only, unless private URLs are allowed (which allows http too). Answers the URL as stored.
 * Delivery checks the address again at connect time, so a host that resolves elsewhere later
 * is refused then.
 */
export async function checkWebhookUrl(raw: string, allowPrivate: boolean, resolver: AddressResolver): Promise<string> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw invalidBody(`url: '${raw.slice(0, 200)}' is not an absolute URL`);
  }
  if (raw.length > MAX_URL_LENGTH) throw invalidBody(`url: at most ${MAX_URL_LENGTH} characters`);
  const schemes = allowPrivate ? ['https:', 'http:'] : ['https:'];
  if (!schemes.includes(url.protocol)) {
    throw invalidBody(allowPrivate ? 'url: must be http or https' : 'url: must be https (http is allowed only with WRS_WEBHOOK_ALLOW_PRIVATE_URLS=true)');
  }
  if (url.username !== '' || url.password !== '') throw invalidBody('url: must not hold a user name or password');
  if (url.hash !== '') throw invalidBody('url: must not have a #fragment');
  if (!allowPrivate) await assertPublicHost(url.hostname, resolver);
  return url.toString();
}

async function assertPublicHost(hostname: string, resolver: AddressResolver): Promise<void> {
  const literal = literalAddress(hostname);
  let addresses: string[];
  if (literal !== undefined) addresses = [literal];
  else {
    try {
      addresses = await resolver.resolve(hostname);
    } catch {
      throw invalidBody(`url: the host '${hostname}' does not resolve`);
    }
  }
  // The addresses are not named: they would tell a company about the network the service runs in.
  if (addresses.length === 0 || !addresses.every(isPublicAddress)) {
    throw invalidBody(`url: the host '${hostname}' resolves to a non-public address; webhooks are delivered to public addresses only`);
  }
}
