import { BlockList, isIPv4, isIPv6 } from 'node:net';

/** Always allowed to read `/detailed`: the loopback networks (IPv4-mapped loopback is matched by the IPv4 rule). */
export const LOOPBACK_NETWORKS: readonly string[] = ['127.0.0.0/8', '::1/128'];

/** Strips brackets and an IPv6 zone id (`fe80::1%eth0`). */
function bareAddress(address: string): string {
  let bare = address.trim();
  if (bare.startsWith('[') && bare.endsWith(']')) bare = bare.slice(1, -1);
  const zone = bare.indexOf('%');
  return zone >= 0 ? bare.slice(0, zone) : bare;
}

/** Parses `a.b.c.d/n`, `x::y/n` or a bare address (a single host). Throws a TypeError on anything else. */
export function parseCidr(cidr: string): { network: string; prefix: number; family: 'ipv4' | 'ipv6' } {
  const [rawNetwork = '', rawPrefix, ...rest] = String(cidr).trim().split('/');
  const network = bareAddress(rawNetwork);
  const family = isIPv4(network) ? 'ipv4' : isIPv6(network) ? 'ipv6' : undefined;
  const max = family === 'ipv4' ? 32 : 128;
  const prefix = rawPrefix === undefined ? max : Number(rawPrefix);
  if (!family || rest.length > 0 || !/^\d+$/.test(rawPrefix ?? String(max)) || prefix > max) {
    throw new TypeError(`Invalid network in detailedAllowedNetworks: ${JSON.stringify(cidr)}`);
  }
  return { network, prefix, family };
}

/**
 * Builds the access rule of `/detailed`: true when `address` (a socket's `remoteAddress`) is loopback or inside
 * one of `networks`. IPv4-mapped IPv6 addresses (`::ffff:10.1.2.3`, as a dual-stack socket reports IPv4 peers)
 * match the IPv4 networks. An unknown or malformed address is refused. No header (X-Forwarded-For) is ever
 * consulted: only the peer of the TCP connection counts.
 */
export function createAddressFilter(
  networks: readonly string[] = [],
): (address: string | undefined) => boolean {
  const allowed = new BlockList();
  for (const cidr of [...LOOPBACK_NETWORKS, ...networks]) {
    const { network, prefix, family } = parseCidr(cidr);
    allowed.addSubnet(network, prefix, family);
  }
  return (address) => {
    if (typeof address !== 'string') return false;
    const bare = bareAddress(address);
    if (isIPv4(bare)) return allowed.check(bare, 'ipv4');
    if (isIPv6(bare)) return allowed.check(bare, 'ipv6');
    return false;
  };
}
