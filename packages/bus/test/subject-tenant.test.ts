import { describe, expect, it } from 'vitest';
import { tenantOfSubject } from '../src/subject-tenant.js';

describe('tenantOfSubject', () => {
  it('reads the tenant of a restaurant event subject, and nothing else', () => {
    expect(tenantOfSubject('tenant.t_1.restaurant.bookings.created')).toBe('t_1');
    expect(tenantOfSubject('tenant.t1.kitchen.bookings.created')).toBeNull();
    expect(tenantOfSubject('tenants.t1.restaurant.bookings.created')).toBeNull();
    expect(tenantOfSubject('tenant..restaurant.bookings.created')).toBeNull();
    expect(tenantOfSubject('tenant.*.restaurant.bookings.created')).toBeNull();
    expect(tenantOfSubject('capacity.config.updated')).toBeNull();
  });
});
