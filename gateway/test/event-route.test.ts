import { describe, expect, it } from 'vitest';
import { buildEvent, natsSubject } from '@coperto/bus';
import { trustedTenantId } from '@coperto/auth';
import { routeEvent } from '../src/subscriptions/event-route.js';
import { tableStatusEvent } from './support/events.js';

describe('routeEvent', () => {
  it('routes an event by the subject it arrived on when the envelope agrees', () => {
    const { subject, event } = tableStatusEvent('alpha', { id: 't1' });
    expect(routeEvent(subject, event)).toEqual({
      ok: true,
      subject,
      tenantId: 'alpha',
      type: 'tables.status',
    });
  });

  it("refuses an event on tenant A's subject whose envelope claims tenant B", () => {
    const { event } = tableStatusEvent('beta', { id: 't1' });
    expect(routeEvent(natsSubject('alpha', 'tables.status'), event)).toEqual({
      ok: false,
      reason: 'tenant-mismatch',
    });
  });

  it('refuses an event whose data names another tenant than its subject and envelope', () => {
    const { subject, event } = tableStatusEvent('alpha', { id: 't1' });
    const forged = { ...event, data: { ...(event.data as object), tenantId: 'beta' } };
    expect(routeEvent(subject, forged)).toEqual({ ok: false, reason: 'tenant-mismatch' });
    const agreeing = { ...event, data: { ...(event.data as object), tenantId: 'alpha' } };
    expect(routeEvent(subject, agreeing)).toMatchObject({ ok: true, tenantId: 'alpha' });
  });

  it('refuses an event whose type is not the one of its subject', () => {
    const { event } = tableStatusEvent('alpha', { id: 't1' });
    expect(routeEvent(natsSubject('alpha', 'bookings.created'), event)).toEqual({
      ok: false,
      reason: 'type-mismatch',
    });
  });

  it('refuses an event without a known subject or on a subject outside the restaurant events', () => {
    const { event } = tableStatusEvent('alpha', { id: 't1' });
    expect(routeEvent(undefined, event)).toEqual({ ok: false, reason: 'no-subject' });
    expect(routeEvent('tenant.alpha.other.tables.status', event)).toEqual({
      ok: false,
      reason: 'bad-subject',
    });
    expect(routeEvent('tenant.alpha.restaurant', event)).toEqual({ ok: false, reason: 'bad-subject' });
  });

  it('routes every waitlist change on the one waitlist.updated subject, and no other type there', () => {
    for (const type of ['waitlist.added', 'waitlist.seated', 'waitlist.cancelled'] as const) {
      const { message, event } = buildEvent({
        tenantId: trustedTenantId('alpha'),
        type,
        source: '/s',
        subject: 'w1',
        data: { id: 'w1' },
      });
      expect(message.subject).toBe('tenant.alpha.restaurant.waitlist.updated');
      expect(routeEvent(message.subject, event)).toEqual({
        ok: true,
        subject: message.subject,
        tenantId: 'alpha',
        type: 'waitlist.updated',
      });
    }
    const { event } = tableStatusEvent('alpha', { id: 't1' });
    expect(routeEvent(natsSubject('alpha', 'waitlist.updated'), event)).toEqual({
      ok: false,
      reason: 'type-mismatch',
    });
  });
});
