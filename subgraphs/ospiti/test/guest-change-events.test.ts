import { describe, expect, it } from 'vitest';
import { trustedTenantId } from '@coperto/auth';
import type { CloudEvent } from '@coperto/bus';
import type { OutboxMessage } from '@coperto/store';
import { erasedGuest } from '../src/erasure.js';
import { changedFields, guestChangeEvents, guestEventType } from '../src/guest-change-events.js';
import { mergedGuest } from '../src/merge.js';
import { newGuest, type OspiteRecord } from '../src/ospite-record.js';

const tenantId = trustedTenantId('t_guest_events');

function guest(id: string, fields: Partial<OspiteRecord> = {}): OspiteRecord {
  return {
    ...newGuest(
      id,
      { nome: 'Lucia Neri', telefono: '+393331112222', email: 'lucia@example.com', lingua: 'it' },
      '2027-03-01T10:00:00.000Z',
    ),
    nomeOrdine: 'lucia neri',
    chiavi: [],
    ...fields,
  };
}

/** The next version of `before`, as a write makes it. */
const next = (before: OspiteRecord, change: Partial<OspiteRecord>): OspiteRecord => ({
  ...before,
  ...change,
  version: before.version + 1,
  updatedAt: '2027-03-02T09:30:00.000Z',
});

/** The event of the only message. */
const bodyOf = (messages: OutboxMessage[]) => messages[0]!.body as CloudEvent<Record<string, unknown>>;

const PERSONAL = ['Lucia', 'Neri', '3331112222', 'lucia@example.com', 'nocciole', 'VIP', 'tavolo vicino'];

describe('the event a write of a guest publishes', () => {
  const lucia = guest('g1', { tag: ['VIP'], allergie: ['nocciole'], note: 'tavolo vicino alla finestra' });

  it('guests.created for a new guest, naming the fields that have a value', () => {
    expect(guestEventType(null, lucia)).toBe('guests.created');
    expect(changedFields(null, lucia)).toEqual([
      'nome',
      'telefono',
      'email',
      'lingua',
      'tag',
      'allergie',
      'note',
    ]);
  });

  it('guests.updated for an edit or a count, with the names of the fields that changed only', () => {
    const edited = next(lucia, { tag: ['VIP', 'habitué'], note: null });
    expect(guestEventType(lucia, edited)).toBe('guests.updated');
    const [message] = guestChangeEvents(tenantId, lucia, edited);
    const event = message!.body as CloudEvent<Record<string, unknown>>;
    expect(message!.subject).toBe('tenant.t_guest_events.restaurant.guests.updated');
    expect(event).toMatchObject({ type: 'guests.updated', source: 'coperto/ospiti', subject: 'g1' });
    expect(event.time).toBe(edited.updatedAt);
    expect(event.data).toMatchObject({ id: 'g1', campi: ['tag', 'note'], fields: ['tags', 'notes'] });
    const counted = next(lucia, { visite: 1, coperti: 4, primaVisita: '2027-03-01T20:00:00' });
    expect(bodyOf(guestChangeEvents(tenantId, lucia, counted)).data).toMatchObject({
      campi: ['visite', 'coperti', 'primaVisita'],
      visits: 1,
      covers: 4,
      firstVisit: '2027-03-01T20:00:00',
    });
  });

  it('nothing when only what the API does not show changed (the last activity, a merge’s freeze)', () => {
    expect(
      guestChangeEvents(tenantId, lucia, next(lucia, { ultimaAttivita: '2027-03-02T00:00:00Z' })),
    ).toEqual([]);
    expect(guestChangeEvents(tenantId, lucia, next(lucia, { unitoIn: 'g2' }))).toEqual([]);
  });

  it('guests.merged on the kept guest, naming the guest merged into it', () => {
    const other = guest('g2', { nome: 'L. Neri', telefono: null, visite: 2, unitiDa: ['g0'] });
    const merged = next(lucia, mergedGuest(lucia, other));
    expect(guestEventType(lucia, merged)).toBe('guests.merged');
    expect(bodyOf(guestChangeEvents(tenantId, lucia, merged)).data).toMatchObject({
      unitoDa: 'g2',
      mergedFrom: 'g2',
      visite: 2,
      campi: ['visite'],
    });
  });

  it('guests.erased on the erasure, whatever else changed', () => {
    const erased = next(lucia, erasedGuest(lucia, '2027-03-02T09:30:00.000Z'));
    expect(guestEventType(lucia, erased)).toBe('guests.erased');
    expect(bodyOf(guestChangeEvents(tenantId, lucia, erased)).data).toMatchObject({
      erased: true,
      erasedAt: '2027-03-02T09:30:00.000Z',
      unitoDa: null,
    });
  });

  it('never carries a name, phone, email, language, notes, tags, allergies or consent', () => {
    const changes: Array<OspiteRecord | null> = [null, lucia];
    const afters = [
      lucia,
      next(lucia, { nome: 'Lucia Neri Rossi', consensoMarketing: true }),
      next(lucia, erasedGuest(lucia, '2027-03-02T09:30:00.000Z')),
    ];
    for (const before of changes)
      for (const after of afters) {
        const published = JSON.stringify(guestChangeEvents(tenantId, before, after));
        for (const text of PERSONAL) expect(published).not.toContain(text);
        expect(published).not.toMatch(
          /"(nome|name|telefono|phone|email|lingua|language|consensoMarketing)":/,
        );
      }
  });
});
