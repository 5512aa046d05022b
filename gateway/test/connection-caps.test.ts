import { describe, expect, it } from 'vitest';
import { createConnectionCaps } from '../src/subscriptions/connection-caps.js';

describe('connection caps', () => {
  it('refuses a tenant past its cap while other tenants are still admitted, and frees the slot on release', () => {
    const caps = createConnectionCaps({ maxSocketsPerTenant: 2, maxSockets: 10 });
    const first = caps.admit('alpha');
    expect(caps.admit('alpha').ok).toBe(true);
    expect(caps.admit('alpha')).toEqual({ ok: false, refused: 'tenant' });
    expect(caps.admit('beta').ok).toBe(true);
    expect(caps.of('alpha')).toBe(2);
    if (!first.ok) throw new Error('first socket refused');
    first.release();
    first.release();
    expect(caps.of('alpha')).toBe(1);
    expect(caps.total).toBe(2);
    expect(caps.admit('alpha').ok).toBe(true);
  });

  it('refuses every tenant once the process holds the total cap', () => {
    const caps = createConnectionCaps({ maxSocketsPerTenant: 5, maxSockets: 2 });
    expect(caps.admit('alpha').ok).toBe(true);
    expect(caps.full()).toBe(false);
    expect(caps.admit('beta').ok).toBe(true);
    expect(caps.full()).toBe(true);
    expect(caps.admit('gamma')).toEqual({ ok: false, refused: 'total' });
  });

  it('holds one entry per tenant with a socket, never more than the sockets, none after the last closes', () => {
    const caps = createConnectionCaps({ maxSocketsPerTenant: 1, maxSockets: 3 });
    const admitted = Array.from({ length: 10 }, (_, i) => caps.admit(`tenant-${i}`));
    expect(admitted.filter((a) => a.ok)).toHaveLength(3);
    expect(caps.tenants).toBe(3);
    for (const admission of admitted) if (admission.ok) admission.release();
    expect(caps.tenants).toBe(0);
  });

  it('treats 0 as no cap', () => {
    const caps = createConnectionCaps({ maxSocketsPerTenant: 0, maxSockets: 0 });
    for (let i = 0; i < 50; i++) expect(caps.admit('alpha').ok).toBe(true);
    expect(caps.full()).toBe(false);
  });
});
