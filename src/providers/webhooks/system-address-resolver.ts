import { lookup } from 'node:dns/promises';
import type { AddressResolver } from '../../domain/webhooks/address-resolver.port.js';

/** The system resolver (getaddrinfo), as node:http resolves a host when it connects. */
export const systemAddressResolver: AddressResolver = {
  async resolve(hostname) {
    return (await lookup(hostname, { all: true, verbatim: true })).map((entry) => entry.address);
  },
};
