import { describe, expect, it } from 'vitest';
import { ValidationError } from '@coperto/errors';
import { policyFromInput, type Regola } from '../src/policy.js';
import {
  dueAt,
  guaranteeAmount,
  isoWeekday,
  leavesTimeToPay,
  matchingRule,
  modeFor,
  penaltyPercent,
  percentOf,
  repricedAmount,
} from '../src/rules.js';

const rule = (over: Partial<Regola>): Regola => ({
  tipo: 'deposit',
  minCoperti: 1,
  giorni: [],
  dalle: '00:00',
  alle: '24:00',
  importoPerCoperto: 1000,
  valuta: 'eur',
  ...over,
});
// 2026-12-04 is a Friday (ISO 5).
const booking = (covers: number, bookingDate = '2026-12-04T20:30:00') => ({
  id: 'b1',
  covers,
  bookingDate,
  startsAt: '2026-12-04T19:30:00.000Z',
});

describe('matchingRule', () => {
  it('takes the first rule matching party, weekday and local time; none = no guarantee', () => {
    const regole = [
      rule({ minCoperti: 8, tipo: 'deposit' }),
      rule({ minCoperti: 4, giorni: [5, 6], dalle: '19:00', alle: '23:00', tipo: 'card' }),
      rule({ minCoperti: 2, giorni: [1] }),
    ];
    expect(matchingRule({ regole }, booking(10))?.tipo).toBe('deposit');
    expect(matchingRule({ regole }, booking(4))?.tipo).toBe('card');
    expect(matchingRule({ regole }, booking(4, '2026-12-04T23:00:00'))).toBeNull(); // `alle` is exclusive
    expect(matchingRule({ regole }, booking(4, '2026-12-04T19:00:00'))?.tipo).toBe('card'); // `dalle` inclusive
    expect(matchingRule({ regole }, booking(3))).toBeNull(); // Friday: the Monday rule does not apply
    expect(matchingRule({ regole }, booking(3, '2026-12-07T12:00:00'))?.minCoperti).toBe(2);
    expect(matchingRule({ regole: [] }, booking(20))).toBeNull();
  });

  it('reads weekdays as ISO (Monday 1, Sunday 7)', () => {
    expect(isoWeekday('2026-12-07T10:00:00')).toBe(1);
    expect(isoWeekday('2026-12-06T10:00:00')).toBe(7);
  });
});

describe('amounts, modes and due times', () => {
  const now = new Date('2026-12-01T10:00:00Z');
  it('charges per cover; holds a card up to 5 days ahead, saves it beyond', () => {
    expect(guaranteeAmount(rule({ importoPerCoperto: 1500 }), 6)).toBe(9000);
    expect(modeFor('deposit', '2027-03-01T10:00:00Z', now)).toBe('deposit');
    expect(modeFor('card', '2026-12-06T10:00:00Z', now)).toBe('hold');
    expect(modeFor('card', '2026-12-06T10:00:01Z', now)).toBe('saved_card');
  });
  it('asks nothing of a booking starting within 10 minutes (a walk-in: its due time would cancel it at once)', () => {
    expect(leavesTimeToPay('2026-12-01T10:09:59Z', now)).toBe(false);
    expect(leavesTimeToPay('2026-12-01T09:00:00Z', now)).toBe(false);
    expect(leavesTimeToPay('2026-12-01T10:10:00Z', now)).toBe(true);
  });
  it('is due dueMinutes after the booking, never after its start', () => {
    expect(dueAt(now, 60, '2026-12-04T19:30:00Z')).toBe('2026-12-01T11:00:00.000Z');
    expect(dueAt(now, 60, '2026-12-01T10:20:00Z')).toBe('2026-12-01T10:20:00.000Z');
  });
});

describe('repricedAmount (the party changed)', () => {
  const asked = { stato: 'requested', importo: 6000, importoPerCoperto: 2000 };
  it('follows the party while the guarantee is requested', () => {
    expect(repricedAmount(asked, 5)).toBe(10_000);
    expect(repricedAmount(asked, 2)).toBe(4000);
    expect(repricedAmount(asked, 3)).toBeNull();
  });
  it('keeps the amount once money or a card is in place, or settled, or when the per-cover amount is unknown', () => {
    for (const stato of ['authorized', 'paid', 'charged', 'released', 'refunded', 'stuck', 'failed'])
      expect(repricedAmount({ ...asked, stato }, 5)).toBeNull();
    expect(repricedAmount({ stato: 'requested', importo: 6000 }, 5)).toBeNull();
  });
});

describe('penaltyPercent', () => {
  const start = '2026-12-04T20:00:00.000Z';
  const hoursBefore = (h: number) => new Date(Date.parse(start) - h * 3600_000).toISOString();
  const tiers = [
    { oreAlmeno: 48, percentuale: 0 },
    { oreAlmeno: 24, percentuale: 50 },
    { oreAlmeno: 0, percentuale: 100 },
  ];
  it('applies the tier with the largest minHours the notice reaches', () => {
    expect(penaltyPercent(tiers, start, hoursBefore(72))).toBe(0);
    expect(penaltyPercent(tiers, start, hoursBefore(48))).toBe(0);
    expect(penaltyPercent(tiers, start, hoursBefore(47.9))).toBe(50);
    expect(penaltyPercent(tiers, start, hoursBefore(2))).toBe(100);
    // After the start (a notice below every tier's minHours): no tier reaches it.
    expect(penaltyPercent([{ oreAlmeno: 24, percentuale: 50 }], start, hoursBefore(2))).toBe(0);
    expect(penaltyPercent([], start, hoursBefore(1))).toBe(0);
  });
  it('rounds percentages of minor units half up', () => {
    expect(percentOf(999, 50)).toBe(500);
    expect(percentOf(4000, 0)).toBe(0);
  });
});

describe('policyFromInput', () => {
  it('takes English names over Italian ones, defaults the rest, sorts the tiers', () => {
    const policy = policyFromInput({
      regole: [{ tipo: 'card', importoPerCoperto: 1, valuta: 'usd' }],
      rules: [{ type: 'deposit', minCovers: 6, weekdays: [6, 5, 6], amountPerCover: 2000, currency: 'EUR' }],
      penali: [
        { oreAlmeno: 24, percentuale: 50 },
        { minHours: 48, percent: 0 },
      ],
      dueMinutes: 30,
      scadenzaMinuti: 90,
    });
    expect(policy).toEqual({
      regole: [
        {
          tipo: 'deposit',
          minCoperti: 6,
          giorni: [5, 6],
          dalle: '00:00',
          alle: '24:00',
          importoPerCoperto: 2000,
          valuta: 'eur',
        },
      ],
      scadenzaMinuti: 30,
      penali: [
        { oreAlmeno: 48, percentuale: 0 },
        { oreAlmeno: 24, percentuale: 50 },
      ],
      percentualeNoShow: 100,
    });
  });

  it('names every bad field at once (400)', () => {
    const attempt = () =>
      policyFromInput({
        rules: [
          { type: 'card', amountPerCover: 0, currency: 'euro', weekdays: [0, 8], from: '25:00', to: '10:00' },
          { amountPerCover: 100 },
        ],
        penalties: [
          { minHours: 24, percent: 120 },
          { minHours: 24, percent: 10 },
        ],
        dueMinutes: 5,
        noShowPercent: -1,
      });
    expect(attempt).toThrow(ValidationError);
    try {
      attempt();
    } catch (error) {
      expect((error as ValidationError).issues.map((i) => i.field).sort()).toEqual(
        [
          'dueMinutes',
          'noShowPercent',
          'penalties',
          'penalties[0].percent',
          'rules[0].amountPerCover',
          'rules[0].currency',
          'rules[0].from',
          'rules[0].weekdays',
          'rules[1].currency',
          'rules[1].type',
        ].sort(),
      );
    }
  });
});
