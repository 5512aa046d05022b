import { describe, expect, it } from 'vitest';
import { createAddressFilter, parseCidr } from '../src/address-filter.js';

describe('detailed access rule', () => {
  const loopbackOnly = createAddressFilter();
  const internal = createAddressFilter(['10.0.0.0/8', '192.168.1.0/24', 'fd00::/8', '203.0.113.7']);

  it('always allows loopback: IPv4, IPv6 and IPv4-mapped', () => {
    for (const address of ['127.0.0.1', '127.8.9.10', '::1', '::ffff:127.0.0.1', '::ffff:7f00:1', '[::1]']) {
      expect(loopbackOnly(address), address).toBe(true);
    }
  });

  it('refuses everything else when no network is configured', () => {
    for (const address of ['10.1.2.3', '192.0.2.2', 'fd00::2', '::ffff:10.1.2.3', '::', '0.0.0.0']) {
      expect(loopbackOnly(address), address).toBe(false);
    }
  });

  it('allows IPv4 addresses inside the configured networks, also IPv4-mapped', () => {
    expect(internal('10.200.3.4')).toBe(true);
    expect(internal('::ffff:10.200.3.4')).toBe(true);
    expect(internal('192.168.1.77')).toBe(true);
    expect(internal('192.168.2.77')).toBe(false);
    expect(internal('::ffff:192.168.2.77')).toBe(false);
    expect(internal('11.0.0.1')).toBe(false);
    expect(internal('203.0.113.7')).toBe(true);
    expect(internal('203.0.113.8')).toBe(false);
  });

  it('allows IPv6 addresses inside the configured networks (zone ids ignored)', () => {
    expect(internal('fd12:3456::1')).toBe(true);
    expect(internal('fe80::1%eth0')).toBe(false);
    expect(internal('2001:db8::1')).toBe(false);
  });

  it('refuses a missing or malformed address', () => {
    expect(internal(undefined)).toBe(false);
    expect(internal('')).toBe(false);
    expect(internal('localhost')).toBe(false);
    expect(internal('10.0.0')).toBe(false);
  });

  it('rejects malformed networks at start-up', () => {
    for (const bad of [
      '10.0.0.0/33',
      '10.0.0.0/-1',
      'fd00::/129',
      'intranet',
      '10.0.0.0/8/1',
      '10.0.0.0/x',
    ]) {
      expect(() => createAddressFilter([bad]), bad).toThrow(TypeError);
    }
    expect(parseCidr('10.0.0.0/8')).toEqual({ network: '10.0.0.0', prefix: 8, family: 'ipv4' });
    expect(parseCidr('::1')).toEqual({ network: '::1', prefix: 128, family: 'ipv6' });
  });
});
