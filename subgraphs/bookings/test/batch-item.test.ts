import { describe, expect, it } from 'vitest';
import { prepareItem } from '../src/batch-item.js';

const valid = { covers: 2, bookingDate: '2026-06-01T20:00', customerName: 'Rossi' };

describe('prepareItem', () => {
  it('passes a well-typed item with its externalId, Italian names and all optional fields', () => {
    const item = {
      numeroPersone: 4,
      dataOra: '2026-06-01T20:00',
      cliente: 'Bianchi',
      customerPhone: '+39 055 123',
      tableIds: ['t1', 't2'],
      notes: 'finestra',
      state: 'confermata',
      durationMinutes: 90,
      externalId: 'pos-1',
    };
    expect(prepareItem(item)).toEqual({ ok: true, input: item, externalId: 'pos-1' });
  });

  it('has no externalId when the item carries none (or null)', () => {
    expect(prepareItem(valid)).toEqual({ ok: true, input: valid, externalId: null });
    expect(prepareItem({ ...valid, externalId: null })).toMatchObject({ ok: true, externalId: null });
  });

  it('drops fields prenotazione does not know (a tenantId in an item is ignored too)', () => {
    expect(prepareItem({ ...valid, tenantId: 'other', tavolo: 7 })).toEqual({
      ok: true,
      input: valid,
      externalId: null,
    });
  });

  it('reads a single table id as a list of one, as GraphQL input coercion does', () => {
    expect(prepareItem({ ...valid, tableIds: 't1' })).toMatchObject({ ok: true });
  });

  it('leaves the rules (required fields, ranges) to prenotazione', () => {
    expect(prepareItem({ covers: 0, bookingDate: '2026-06-01T20:00' })).toMatchObject({ ok: true });
  });

  it("refuses a malformed date by prenotazione's date scalar, naming the field", () => {
    expect(prepareItem({ ...valid, bookingDate: '2026-02-30T20:00' })).toEqual({
      ok: false,
      issues: [
        {
          field: 'bookingDate',
          message:
            'LocalDateTime cannot represent "2026-02-30T20:00": expected an ISO 8601 date-time YYYY-MM-DDTHH:MM[:SS]',
        },
      ],
    });
  });

  it.each([
    [{ ...valid, covers: 'two' }, 'covers'],
    [{ ...valid, covers: 2.5 }, 'covers'],
    [{ ...valid, customerName: 42 }, 'customerName'],
    [{ ...valid, state: 'flying' }, 'state'],
    [{ ...valid, tableIds: [{ id: 't1' }] }, 'tableIds.0'],
    [{ ...valid, tableIds: { id: 't1' } }, 'tableIds'],
    [{ ...valid, tableIds: ['t1', null] }, 'tableIds.1'],
    [{ ...valid, externalId: 12 }, 'externalId'],
    [{ ...valid, durationMinutes: '90' }, 'durationMinutes'],
  ])('names the field of a type error in %j: %s', (item, field) => {
    const prepared = prepareItem(item);
    expect(prepared.ok).toBe(false);
    if (!prepared.ok) expect(prepared.issues.map((i) => i.field)).toEqual([field]);
  });

  it('names every wrong field of one item at once', () => {
    const prepared = prepareItem({ covers: 'x', cliente: false, state: 'nope' });
    expect(prepared.ok ? [] : prepared.issues.map((i) => i.field).sort()).toEqual([
      'cliente',
      'covers',
      'state',
    ]);
  });

  it.each([null, 42, 'booking', [valid]])('refuses the item %j that is not an object', (item) => {
    expect(prepareItem(item)).toEqual({
      ok: false,
      issues: [{ field: 'item', message: 'must be a JSON object' }],
    });
  });
});
