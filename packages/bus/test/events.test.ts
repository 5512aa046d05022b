import { describe, expect, it } from 'vitest';
import { trustedTenantId, type TenantId } from '@coperto/auth';
import { decodeEvent, encodeEvent, isCloudEvent } from '../src/codec.js';
import { buildEvent } from '../src/events.js';
import { natsSubject, subjectTypeOf, WAITLIST_EVENT_TYPES } from '../src/types.js';

const tenantId = trustedTenantId('acme');

describe('buildEvent', () => {
  it('builds the CloudEvents envelope and the outbox message carrying it', () => {
    const { event, message } = buildEvent({
      tenantId,
      type: 'tables.status',
      source: '/subgraphs/tavolo',
      subject: 'T1',
      data: { id: 'T1', stato: 'occupato', previousStatus: 'libero' },
      id: 'evt-1',
      time: new Date(Date.UTC(2025, 4, 1, 12, 30)),
    });
    expect(event).toEqual({
      specversion: '1.0',
      id: 'evt-1',
      source: '/subgraphs/tavolo',
      type: 'tables.status',
      subject: 'T1',
      time: '2025-05-01T12:30:00.000Z',
      datacontenttype: 'application/json',
      tenantid: 'acme',
      data: { id: 'T1', stato: 'occupato', previousStatus: 'libero' },
    });
    expect(message).toEqual({ id: 'evt-1', subject: 'tenant.acme.restaurant.tables.status', body: event });
  });

  it('defaults to a random UUID and the current time in ISO UTC', () => {
    const input = { tenantId, type: 'bookings.created' as const, source: '/s', subject: 'P1', data: null };
    const a = buildEvent(input).event;
    const b = buildEvent(input).event;
    expect(a.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(a.id).not.toBe(b.id);
    expect(a.time).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
  });

  it('normalises a time string to ISO UTC', () => {
    const { event } = buildEvent({
      tenantId,
      type: 'bookings.updated',
      source: '/s',
      subject: 'P1',
      data: 1,
      time: '2025-05-01T14:30:00+02:00',
    });
    expect(event.time).toBe('2025-05-01T12:30:00.000Z');
  });

  it('refuses tenant ids that would widen the subject, and bad times', () => {
    const base = { type: 'bookings.cancelled' as const, source: '/s', subject: 'P1', data: {} };
    for (const bad of ['a.b', '*', '>', 'a b', '']) {
      expect(() => buildEvent({ ...base, tenantId: bad as TenantId })).toThrow(TypeError);
    }
    expect(() => buildEvent({ ...base, tenantId, time: 'not a date' })).toThrow(TypeError);
  });
});

describe('subjects', () => {
  it('publishes each type on its own subject, the waitlist changes all on waitlist.updated', () => {
    expect(natsSubject('acme', 'bookings.created')).toBe('tenant.acme.restaurant.bookings.created');
    const waitlistTypes = [
      'waitlist.added',
      'waitlist.notified',
      'waitlist.seated',
      'waitlist.left',
      'waitlist.cancelled',
      'waitlist.erased',
    ];
    for (const type of waitlistTypes) {
      expect(subjectTypeOf(type)).toBe('waitlist.updated');
      expect(natsSubject('acme', type)).toBe('tenant.acme.restaurant.waitlist.updated');
    }
    expect([...WAITLIST_EVENT_TYPES].sort()).toEqual([...waitlistTypes].sort());
    expect(subjectTypeOf('waitlist.updated')).toBe('waitlist.updated');
    expect(subjectTypeOf('tables.status')).toBe('tables.status');
    expect(subjectTypeOf('toString')).toBe('toString');
  });
});

describe('event codec', () => {
  it('round-trips an envelope and rejects what is not one', () => {
    const { event } = buildEvent({
      tenantId,
      type: 'tables.status',
      source: '/s',
      subject: 'T1',
      data: { città: '€' },
    });
    expect(isCloudEvent(event)).toBe(true);
    expect(decodeEvent(encodeEvent(event))).toEqual(event);
    expect(decodeEvent(new TextEncoder().encode('not json'))).toBeNull();
    expect(decodeEvent(new TextEncoder().encode('{"id":"x"}'))).toBeNull();
    expect(decodeEvent(new TextEncoder().encode('[1]'))).toBeNull();
  });
});
