import ipaddr from 'ipaddr.js';

/**
 * IPv4-compatible IPv6 (`::a.b.c.d`, deprecated by RFC 4291): ipaddr.js calls it unicast, but
 * a host may route it to the IPv4 address it carries (`[::127.0.0.1]` is `[::7f00:1]`).
 */
const IPV4_COMPATIBLE = ipaddr.IPv6.parseCIDR('::/96');

/**
 * True for a public unicast address only: never loopback, private, link-local, unique-local,
 * multicast, unspecified, carrier-grade NAT, documentation, IPv4-compatible or other reserved
 * ranges. An IPv4-mapped IPv6 address is judged as the IPv4 address it carries.
 */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  const parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv6' && parsed.match(IPV4_COMPATIBLE)) return false;
  return ipaddr.process(address).range() === 'unicast';
}

/** The address a URL host names literally (without IPv6 brackets), or undefined for a name. */
export function literalAddress(hostname: string): string | undefined {
  const bare = hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
  return ipaddr.isValid(bare) && (bare.includes(':') || ipaddr.IPv4.isValidFourPartDecimal(bare)) ? bare : undefined;
}
