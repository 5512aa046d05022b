import { BlockList, isIP } from 'node:net';

/**
 * Addresses a webhook may not reach (unless WEBHOOKS_ALLOW_PRIVATE): the machine itself, private and
 * shared networks, link-local (cloud metadata at 169.254.169.254), multicast, reserved and documentation
 * ranges, in IPv4 and IPv6 (an IPv4-mapped IPv6 address counts as its IPv4 address).
 */
const REFUSED_V4: ReadonlyArray<[string, number]> = [
  ['0.0.0.0', 8], // "this" network
  ['10.0.0.0', 8], // private
  ['100.64.0.0', 10], // shared address space (carrier-grade NAT)
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local
  ['172.16.0.0', 12], // private
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // documentation
  ['192.168.0.0', 16], // private
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // documentation
  ['203.0.113.0', 24], // documentation
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
];
const REFUSED_V6: ReadonlyArray<[string, number]> = [
  ['::', 128], // unspecified
  ['::1', 128], // loopback
  ['64:ff9b::', 96], // NAT64: reaches IPv4 addresses, private ones too
  ['100::', 64], // discard
  ['2001:db8::', 32], // documentation
  ['fc00::', 7], // unique local
  ['fe80::', 10], // link-local
  ['ff00::', 8], // multicast
];

const refused = new BlockList();
for (const [net, prefix] of REFUSED_V4) refused.addSubnet(net, prefix, 'ipv4');
for (const [net, prefix] of REFUSED_V6) refused.addSubnet(net, prefix, 'ipv6');

const MAPPED_V4 = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i;
const MAPPED_V4_HEX = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i;

/** The IPv4 address an IPv4-mapped IPv6 address stands for (`::ffff:127.0.0.1`, `::ffff:7f00:1`), else null. */
function mappedV4(address: string): string | null {
  const dotted = MAPPED_V4.exec(address);
  if (dotted) return dotted[1]!;
  const hex = MAPPED_V4_HEX.exec(address);
  if (!hex) return null;
  const value = (parseInt(hex[1]!, 16) << 16) | parseInt(hex[2]!, 16);
  return [24, 16, 8, 0].map((shift) => (value >>> shift) & 255).join('.');
}

/** True when a webhook may be sent to this IP address (public unicast); false for anything else, also non-IPs. */
export function isPublicAddress(address: string): boolean {
  const version = isIP(address);
  if (version === 0) return false;
  if (version === 6) {
    const v4 = mappedV4(address);
    if (v4 !== null) return !refused.check(v4, 'ipv4');
    return !refused.check(address, 'ipv6');
  }
  return !refused.check(address, 'ipv4');
}
