import { describe, expect, it } from 'vitest';
import type { CloudEvent } from '@coperto/bus';
import { tablePaymentOf } from '../src/event-facts.js';
import type { CollegamentoRecord } from '../src/ospite-record.js';
import { applySpend, bookingPaid, spendKey } from '../src/spend.js';
import { newGuest } from '../src/ospite-record.js';

const link = (id: string, startsAt: string, stato = 'confermata', tableIds = ['t1']): CollegamentoRecord => ({
  id: `p:${id}`,
  tipo: 'prenotazione',
  riferimento: id,
  ospiteId: `g-${id}`,
  stato,
  startsAt,
  aggiornatoAt: startsAt,
  tableIds,
});

const payment = (at: string, tableId = 't1') => ({ tableId, amount: 10, at });

describe('spend: which booking a table was seating when it went to payment', () => {
  const links = [
    link('lunch', '2027-05-10T11:00:00.000Z'),
    link('dinner', '2027-05-10T18:00:00.000Z'),
    link('late', '2027-05-10T20:30:00.000Z'),
    link('gone', '2027-05-10T19:00:00.000Z', 'annullata'),
    link('other', '2027-05-10T19:30:00.000Z', 'confermata', ['t2']),
  ];

  it('the booking that started last before the payment, not a cancelled one nor another table’s', () => {
    expect(bookingPaid(links, payment('2027-05-10T19:45:00.000Z'))?.riferimento).toBe('dinner');
    expect(bookingPaid(links, payment('2027-05-10T13:00:00.000Z'))?.riferimento).toBe('lunch');
  });

  it('a party seated early pays before its start: the booking starting within the hour', () => {
    expect(bookingPaid(links, payment('2027-05-10T10:15:00.000Z'))?.riferimento).toBe('lunch');
    expect(bookingPaid(links, payment('2027-05-10T09:30:00.000Z'))).toBeNull();
  });

  it('none after the longest stay', () => {
    expect(bookingPaid(links, payment('2027-05-11T09:00:00.000Z'))).toBeNull();
  });
});

describe('spend: counted once per booking and table, in cents', () => {
  it('adds the bill once; a replay adds nothing', () => {
    const guest = newGuest(
      'g1',
      { nome: 'A', telefono: null, email: null, lingua: null },
      '2027-01-01T00:00:00Z',
    );
    const once = applySpend(guest, spendKey('b1', 't1'), 0.1)!;
    const twice = applySpend(once, spendKey('b1', 't2'), 0.2)!;
    expect(twice.spesaTotale).toBe(0.3);
    expect(applySpend(twice, spendKey('b1', 't1'), 0.1)).toBeNull();
  });

  it('reads tables.status to payment_pending with a bill above 0 only', () => {
    const event = (data: Record<string, unknown>, type = 'tables.status') =>
      ({ type, data: { id: 't1', updatedAt: '2027-05-10T20:00:00.000Z', ...data } }) as unknown as CloudEvent;
    expect(tablePaymentOf(event({ status: 'payment_pending', totalAmount: 42 }))).toEqual({
      tableId: 't1',
      amount: 42,
      at: '2027-05-10T20:00:00.000Z',
    });
    expect(tablePaymentOf(event({ status: 'occupied', totalAmount: 42 }))).toBeNull();
    expect(tablePaymentOf(event({ status: 'payment_pending', totalAmount: null }))).toBeNull();
    expect(tablePaymentOf(event({ status: 'payment_pending', totalAmount: 0 }))).toBeNull();
    expect(
      tablePaymentOf(event({ status: 'payment_pending', totalAmount: 5 }, 'bookings.updated')),
    ).toBeNull();
  });
});
