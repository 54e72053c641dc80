import { isIPv6 } from 'node:net';

/**
 * The rate-limiting key of a client address. IPv4-mapped IPv6 addresses are their IPv4
 * address; other IPv6 addresses are grouped by /64, the block one host or home usually has,
 * so that rotating through the block does not multiply the budget.
 */
export function clientAddressKey(ip: string): string {
  const address = ip.split('%')[0]!;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return mapped[1]!;
  if (!isIPv6(address)) return address;
  return `${ipv6Groups(address).slice(0, 4).join(':')}::/64`;
}

/** The eight 16-bit groups of an IPv6 address, `::` expanded, without leading zeros. */
function ipv6Groups(address: string): string[] {
  const width = (part: string): number => (part.includes('.') ? 2 : 1);
  const split = (part: string | undefined): string[] => (part ? part.split(':') : []);
  const [head, tail] = address.split('::');
  const headGroups = split(head);
  const tailGroups = split(tail);
  const used = [...headGroups, ...tailGroups].reduce((sum, part) => sum + width(part), 0);
  const groups = tail === undefined ? headGroups : [...headGroups, ...Array<string>(8 - used).fill('0'), ...tailGroups];
  return groups.map((group) => (group.includes('.') ? group : parseInt(group, 16).toString(16)));
}
