import { describe, expect, it } from 'vitest';
import { normalizeEmail, normalizePhone } from '../src/contacts.js';
import { applyOutcome, outcomeOf, type BookingFacts } from '../src/counts.js';
import { duplicatePairs } from '../src/duplicates.js';
import { activityOf, activityToStore } from '../src/linker.js';
import { newGuest, type OspiteRecord } from '../src/ospite-record.js';
import { searchPlan } from '../src/search-plan.js';
import { searchKeys } from '../src/search-keys.js';

const guest = (id: string, fields: Partial<OspiteRecord>): OspiteRecord => ({
  ...newGuest(id, { nome: null, telefono: null, email: null, lingua: null }, `2027-01-01T00:00:0${id}Z`),
  nomeOrdine: '',
  chiavi: [],
  ...fields,
});

describe('contacts', () => {
  it('writes phones in E.164, taking the country for numbers without a prefix, and refuses what is no number', () => {
    expect(normalizePhone('333 123 4567', 'IT')).toBe('+393331234567');
    expect(normalizePhone('0039 333 123 4567', 'IT')).toBe('+393331234567');
    expect(normalizePhone('(415) 555-2671', 'US')).toBe('+14155552671');
    expect(normalizePhone('+44 20 7946 0958', 'IT')).toBe('+442079460958');
    expect(normalizePhone('12', 'IT')).toBeNull();
    expect(normalizePhone('call me', 'IT')).toBeNull();
    expect(normalizePhone('  ', 'IT')).toBeNull();
  });

  it('lower-cases emails and refuses what is no address', () => {
    expect(normalizeEmail(' Anna.Rossi@Example.IT ')).toBe('anna.rossi@example.it');
    expect(normalizeEmail('anna@')).toBeNull();
    expect(normalizeEmail(null)).toBeNull();
  });
});

describe('search keys and plans', () => {
  it('keys name-word prefixes without accents, trailing phone digits and the email', () => {
    const keys = searchKeys({ nome: 'Zoë Li', telefono: '+3912345', email: 'z@x.it' });
    expect(keys).toEqual(['n:zo', 'n:zoe', 'n:li', 't:2345', 't:12345', 't:912345', 't:3912345', 'e:z@x.it']);
  });

  it('reads a query as an email, a phone (whole or its last digits) or name words', () => {
    expect(searchPlan('Z@X.it', 'IT')).toEqual({ key: 'e:z@x.it', check: null });
    expect(searchPlan('333 123 4567', 'IT')).toEqual({ key: 't:393331234567', check: null });
    expect(searchPlan('4567', 'IT')).toEqual({ key: 't:4567', check: null });
    expect(searchPlan('Rossi', 'IT')).toEqual({ key: 'n:rossi', check: null });
    const two = searchPlan('ma rossi', 'IT');
    expect(two.key).toBe('n:rossi');
    expect(two.check!({ nome: 'Mario Rossi' })).toBe(true);
    expect(two.check!({ nome: 'Luca Rossi' })).toBe(false);
    expect(searchPlan('a', 'IT').key).toBeNull();
  });
});

describe('counts', () => {
  const booking = (fields: Partial<BookingFacts>): BookingFacts => ({
    id: 'b1',
    state: 'confermata',
    covers: 3,
    bookingDate: '2027-05-01T20:00:00',
    startsAt: '2027-05-01T18:00:00.000Z',
    cancelledAt: null,
    ...fields,
  });

  it('counts a cancellation as late from 24 hours before the start on', () => {
    expect(outcomeOf(booking({ state: 'annullata', cancelledAt: '2027-04-30T18:00:00.001Z' }))?.kind).toBe(
      'annullamentoTardivo',
    );
    expect(outcomeOf(booking({ state: 'annullata', cancelledAt: '2027-04-30T18:00:00.000Z' }))).toBeNull();
    expect(outcomeOf(booking({ state: 'confermata' }))).toBeNull();
    expect(outcomeOf(booking({ state: 'no_show' }))).toEqual({ key: 'b1:noShow', kind: 'noShow' });
  });

  it('adds an outcome once, keeping the first and the last visit', () => {
    const g = guest('1', {
      primaVisita: '2027-06-01T20:00:00',
      ultimaVisita: '2027-06-01T20:00:00',
      visite: 1,
    });
    const visit = booking({ state: 'completata' });
    const once = applyOutcome(g, visit, outcomeOf(visit)!)!;
    expect(once).toMatchObject({
      visite: 2,
      coperti: 3,
      primaVisita: '2027-05-01T20:00:00',
      ultimaVisita: '2027-06-01T20:00:00',
    });
    expect(applyOutcome(once, visit, outcomeOf(visit)!)).toBeNull();
  });
});

describe('duplicate pairs', () => {
  it('pairs guests sharing two of name, phone and email, never the name alone, oldest first', () => {
    const a = guest('1', { nome: 'Mario Rossi', telefono: '+391', email: 'm@x.it' });
    const b = guest('2', { nome: 'mario  rossi', telefono: '+391' });
    const c = guest('3', { nome: 'Mario Rossi', telefono: '+392' });
    const d = guest('4', { nome: 'Luigi', telefono: '+392', email: 'm@x.it' });
    expect(duplicatePairs([d, c, b, a]).map((p) => [p.a.id, p.b.id, p.campi])).toEqual([
      ['1', '2', ['nome', 'telefono']],
    ]);
  });
});

describe("a guest's last activity (what retention reads)", () => {
  it("is a record's last change or a booking's start, whichever is later", () => {
    expect(activityOf({ updatedAt: '2027-01-01T10:00:00.000Z', startsAt: '2027-03-01T19:00:00.000Z' })).toBe(
      '2027-03-01T19:00:00.000Z',
    );
    expect(activityOf({ updatedAt: '2027-01-01T10:00:00.000Z', startsAt: null })).toBe(
      '2027-01-01T10:00:00.000Z',
    );
  });

  it('is stored when there is none or it moves on by more than a day: one write a day at most', () => {
    expect(activityToStore(null, '2027-01-01T10:00:00.000Z')).toBe('2027-01-01T10:00:00.000Z');
    expect(activityToStore('2027-01-01T10:00:00.000Z', '2027-01-02T09:00:00.000Z')).toBeNull();
    expect(activityToStore('2027-01-01T10:00:00.000Z', '2027-01-02T10:00:01.000Z')).toBe(
      '2027-01-02T10:00:01.000Z',
    );
    expect(activityToStore('2027-03-01T10:00:00.000Z', '2027-01-02T10:00:00.000Z')).toBeNull();
  });
});
