import { describe, expect, it } from 'vitest';
import type { CloudEvent } from '@coperto/bus';
import { bookingFactsOf } from '../src/booking-facts.js';
import { reminderLinks, reminderText } from '../src/message.js';
import { dueDecision, plannedReminders, reminderKey } from '../src/plan.js';
import { rulesOf } from '../src/rules-events.js';

const start = '2027-03-10T19:00:00.000Z';
const booking = { id: 'b1', state: 'confermata', startsAt: start };

describe('plannedReminders', () => {
  it('plans one reminder per rule, due the start minus its hours, earliest first', () => {
    expect(
      plannedReminders(booking, [{ hoursBefore: 2 }, { hoursBefore: 24 }], '2027-03-01T00:00:00.000Z'),
    ).toEqual([
      { key: 'b1/24', hoursBefore: 24, dueAt: '2027-03-09T19:00:00.000Z' },
      { key: 'b1/2', hoursBefore: 2, dueAt: '2027-03-10T17:00:00.000Z' },
    ]);
  });
  it('plans none for a booking that is not active', () => {
    for (const state of ['annullata', 'completata', 'no_show'])
      expect(plannedReminders({ ...booking, state }, [{ hoursBefore: 24 }], '')).toEqual([]);
    for (const state of ['pending', 'caparra_pagata'])
      expect(plannedReminders({ ...booking, state }, [{ hoursBefore: 24 }], '')).toHaveLength(1);
  });
  it('leaves out a reminder due before the booking got its start (made or moved at short notice)', () => {
    const madeAt = '2027-03-10T10:00:00.000Z';
    expect(
      plannedReminders(booking, [{ hoursBefore: 24 }, { hoursBefore: 2 }], madeAt).map((r) => r.key),
    ).toEqual(['b1/2']);
  });
});

describe('dueDecision', () => {
  const now = new Date('2027-03-09T19:00:05.000Z');
  const reminder = { hoursBefore: 24, dueAt: '2027-03-09T19:00:00.000Z' };
  it('sends for an active booking still to start at the planned time', () => {
    expect(dueDecision(booking, reminder, now)).toEqual({ send: true });
    // late (the service was down), the booking not started yet: still sent
    expect(dueDecision(booking, reminder, new Date('2027-03-10T18:59:00.000Z'))).toEqual({ send: true });
  });
  it('skips a started, inactive, unknown or moved booking', () => {
    expect(dueDecision(booking, reminder, new Date(start))).toEqual({
      send: false,
      reason: 'booking_started',
    });
    expect(dueDecision({ ...booking, state: 'annullata' }, reminder, now)).toEqual({
      send: false,
      reason: 'booking_not_active',
    });
    expect(dueDecision(null, reminder, now)).toEqual({ send: false, reason: 'booking_unknown' });
    expect(dueDecision({ ...booking, startsAt: '2027-03-10T21:00:00.000Z' }, reminder, now)).toEqual({
      send: false,
      reason: 'booking_moved',
    });
  });
});

describe('rulesOf (capacity.config.updated)', () => {
  const event = (data: unknown, type = 'capacity.config.updated'): CloudEvent =>
    ({
      specversion: '1.0',
      id: 'e1',
      source: 'coperto/capacity',
      type,
      subject: 'config',
      data,
    }) as CloudEvent;
  it('reads the rules, since when they hold and the config they came with', () => {
    const data = {
      promemoria: [{ orePrima: 48, hoursBefore: 48 }],
      reminders: [{ orePrima: 48, hoursBefore: 48 }],
      remindersUpdatedAt: '2027-01-01T10:00:00.000Z',
      updatedAt: '2027-01-02T10:00:00.000Z',
    };
    expect(rulesOf(event(data))).toEqual({
      regole: [{ hoursBefore: 48 }],
      since: '2027-01-01T10:00:00.000Z',
      configUpdatedAt: '2027-01-02T10:00:00.000Z',
    });
    expect(rulesOf(event({ ...data, reminders: [], remindersUpdatedAt: null }))).toMatchObject({
      regole: [],
      since: null,
    });
  });
  it('ignores other events and bodies without rules', () => {
    const updatedAt = '2027-01-02T10:00:00.000Z';
    expect(rulesOf(event({ reminders: [], updatedAt }, 'bookings.updated'))).toBeNull();
    expect(rulesOf(event({ updatedAt }))).toBeNull();
    expect(rulesOf(event({ reminders: [{ hoursBefore: '2' }], updatedAt }))).toBeNull();
    expect(rulesOf(event({ reminders: [{ hoursBefore: 0 }], updatedAt }))).toBeNull();
    expect(rulesOf(event({ reminders: [] }))).toBeNull();
    expect(rulesOf(event(null))).toBeNull();
  });
  it('keys reminders by booking and hours', () => {
    expect(reminderKey('b1', 24)).toBe('b1/24');
  });
});

describe('the reminder email', () => {
  const links = reminderLinks('https://coperto.example', 'tok.en');
  const facts = { customerName: 'Rita Greco', startsAt: start, covers: 4, codice: 'K7Q2', lingua: null };
  it('links the manage page with the token in the fragment, on its confirm and cancel steps', () => {
    expect(links).toEqual({
      manage: 'https://coperto.example/prenota/gestisci#token=tok.en',
      confirm: 'https://coperto.example/prenota/gestisci#token=tok.en&azione=conferma',
      cancel: 'https://coperto.example/prenota/gestisci#token=tok.en&azione=annulla',
    });
  });
  it('is Italian by default, in the restaurant’s time zone', () => {
    const { subject, text } = reminderText(facts, links, 'Europe/Rome');
    expect(subject).toBe('Promemoria: il tuo tavolo mercoledì 10 marzo alle ore 20:00');
    expect(text).toContain('Gentile Rita Greco,');
    expect(text).toContain('per 4 persone mercoledì 10 marzo alle ore 20:00 (codice K7Q2)');
    expect(text).toContain(`Conferma: ${links.confirm}`);
    expect(text).toContain(`Annulla: ${links.cancel}`);
  });
  it('is English when the booking says en', () => {
    const { subject, text } = reminderText({ ...facts, lingua: 'en' }, links, 'Europe/Rome');
    expect(subject).toBe('Reminder: your table on Wednesday 10 March at 20:00');
    expect(text).toContain('Dear Rita Greco,');
    expect(text).toContain(`Confirm: ${links.confirm}`);
    expect(text).toContain(`Cancel: ${links.cancel}`);
  });
});

describe('bookingFactsOf', () => {
  const event = (type: string, data: unknown) =>
    ({
      specversion: '1.0',
      id: 'e',
      source: 's',
      type,
      subject: 'b1',
      time: start,
      datacontenttype: 'application/json',
      tenantid: 't',
      data,
    }) as never;
  it('reads a booking event, its end from the minutes it holds its tables', () => {
    const facts = bookingFactsOf(
      event('bookings.created', {
        id: 'b1',
        codice: 'K7Q2',
        state: 'confermata',
        startsAt: start,
        covers: 2,
        customerName: 'Rita',
        customerEmail: 'rita@example.com',
        lingua: 'en',
        effectiveDurationMinutes: 90,
        updatedAt: '2027-03-01T10:00:00.000Z',
      }),
    );
    expect(facts).toMatchObject({
      endsAt: '2027-03-10T20:30:00.000Z',
      customerEmail: 'rita@example.com',
      lingua: 'en',
    });
  });
  it('ignores other events and bodies without a booking’s shape', () => {
    expect(bookingFactsOf(event('tables.status', { id: 't1' }))).toBeNull();
    expect(bookingFactsOf(event('bookings.updated', { id: 'b1', state: 'confermata' }))).toBeNull();
  });
});
