import ipaddr from 'ipaddr.js';

/**
 * True for a public unicast address only: never loopback, private, link-local, unique-local,
 * multicast, unspecified, carrier-grade NAT, documentation or other reserved ranges. An
 * IPv4-mapped IPv6 address is judged as the IPv4 address it carries.
 */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  return ipaddr.process(address).range() === 'unicast';
}

/** The address a URL host names literally (without IPv6 brackets), or undefined for a name. */
export function literalAddress(hostname: string): string | undefined {
  const bare = hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
  return ipaddr.isValid(bare) && (bare.includes(':') || ipaddr.IPv4.isValidFourPartDecimal(bare)) ? bare : undefined;
}
