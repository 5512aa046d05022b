// The report view's pure part (gateway/public/floor-plan/report-model.js, a browser module without DOM use):
// a report of GET /api/report turned into chart series, in English and in Italian field names alike. The view
// drawing them against the real endpoint is test/floor-plan-host.browser.e2e.test.ts.
import { describe, expect, it } from 'vitest';

type Report = Record<string, unknown>;
interface Series {
  labels: string[];
}
const model = (await import('../public/floor-plan/report-model.js' as string)) as {
  weekdayIndex(date: string): number;
  coversByHour(report: Report): Series & { covers: number[] };
  noShowByWeekday(report: Report): Series & { rates: (number | null)[]; services: number[] };
  turnTimes(report: Report): Series & {
    actual: (number | null)[];
    configured: (number | null)[];
    seatings: number[];
  };
  revPashByService(report: Report): Series & { values: number[] };
  totalsSummary(report: Report): [string, string][];
};

const totals = (over: Record<string, unknown>) => ({
  coversBooked: 0,
  coversSeated: 0,
  walkIns: 0,
  noShows: 0,
  bookingsDue: 0,
  noShowRate: null,
  cancellations: 0,
  seatUtilisation: 0,
  revenue: 0,
  revPash: 0,
  ...over,
});

// 2030-06-14 is a Friday, 2030-06-17 a Monday, 2030-06-21 the next Friday.
const REPORT = {
  dal: '2030-06-14',
  al: '2030-06-21',
  salaId: null,
  services: [
    {
      date: '2030-06-14',
      start: '19:00',
      end: '23:00',
      ...totals({ coversBooked: 40, noShows: 1, bookingsDue: 10, noShowRate: 0.1, revPash: 12.345 }),
    },
    {
      date: '2030-06-17',
      start: '12:00',
      end: '15:00',
      ...totals({ coversBooked: 0, noShowRate: null, revPash: null }),
    },
    {
      date: '2030-06-21',
      start: '19:00',
      end: '23:00',
      ...totals({ coversBooked: 10, noShows: 2, bookingsDue: 4, noShowRate: 0.5, revPash: 3 }),
    },
  ],
  byHour: [
    { hour: '19:00', covers: 22 },
    { hour: '20:00', covers: 31 },
  ],
  turns: [
    { covers: 4, seatings: 12, medianMinutes: 104, configuredMinutes: 120 },
    { covers: 2, seatings: 30, medianMinutes: 71.5, configuredMinutes: 90 },
    { covers: 8, seatings: 0, medianMinutes: null, configuredMinutes: 150 },
  ],
  totals: totals({
    coversBooked: 50,
    coversSeated: 44,
    walkIns: 3,
    noShows: 9,
    noShowRate: 0.18,
    revenue: 1234.5,
    revPash: 7.891,
    seatUtilisation: 0.625,
  }),
};

describe('report series', () => {
  it('finds the ISO weekday of a date, Monday first', () => {
    expect(model.weekdayIndex('2030-06-17')).toBe(0);
    expect(model.weekdayIndex('2030-06-14')).toBe(4);
    expect(model.weekdayIndex('2030-06-16')).toBe(6);
  });

  it('covers by hour in the report’s order', () => {
    expect(model.coversByHour(REPORT)).toEqual({ labels: ['19:00', '20:00'], covers: [22, 31] });
  });

  it('pools the no-show rate of each weekday’s services, weighted by covers booked; none is null', () => {
    const { labels, rates, services } = model.noShowByWeekday(REPORT);
    expect(labels).toEqual(['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun']);
    // Fridays pooled: (1 + 2) no-shows over (10 + 4) bookings due = 21.4 % (not the mean of 10 % and 50 %);
    // the Monday had nothing due: no figure.
    expect(rates).toEqual([null, null, null, null, 21.4, null, null]);
    expect(services).toEqual([0, 0, 0, 0, 2, 0, 0]);
  });

  it('turn times by the configuration’s rows (up to maxCovers each), smallest first, null where none was seated', () => {
    expect(model.turnTimes(REPORT)).toEqual({
      labels: ['1–2 covers', '3–4 covers', '5–8 covers'],
      actual: [71.5, 104, null],
      configured: [90, 120, 150],
      seatings: [30, 12, 0],
    });
  });

  it('revenue per available seat-hour by service, labelled with weekday, date and start; none without seats', () => {
    expect(model.revPashByService(REPORT)).toEqual({
      labels: ['Fri 14/06 19:00', 'Mon 17/06 12:00', 'Fri 21/06 19:00'],
      values: [12.35, null, 3],
    });
  });

  it('lists the totals, rates in percent and money with two decimals', () => {
    expect(model.totalsSummary(REPORT)).toEqual([
      ['Covers booked', '50'],
      ['Covers seated', '44'],
      ['Walk-ins', '3'],
      ['No-shows', '9'],
      ['No-show rate', '18 %'],
      ['Cancellations', '0'],
      ['Seat utilisation', '62.5 %'],
      ['Revenue', '1234.50'],
      ['RevPASH', '7.89'],
    ]);
    const none = model.totalsSummary({ totals: totals({ seatUtilisation: null, revPash: null }) });
    expect(none[4]).toEqual(['No-show rate', '–']);
    expect(none[6]).toEqual(['Seat utilisation', '–']);
    expect(none[8]).toEqual(['RevPASH', '–']);
  });

  it('reads the Italian names as well', () => {
    const italian = {
      servizi: [
        {
          data: '2030-06-14',
          inizio: '19:00',
          fine: '23:00',
          copertiPrenotati: 20,
          noShow: 2,
          prenotazioniDovute: 8,
          tassoNoShow: 0.25,
          ricavoPerPostoOra: 4,
        },
      ],
      perOra: [{ ora: '19:00', coperti: 5 }],
      turni: [{ coperti: 2, sedute: 3, medianaMinuti: 80, configuratiMinuti: 90 }],
      totali: { copertiPrenotati: 20, noShow: 5, tassoNoShow: 0.25, ricavo: 10, ricavoPerPostoOra: 4 },
    };
    expect(model.coversByHour(italian)).toEqual({ labels: ['19:00'], covers: [5] });
    expect(model.noShowByWeekday(italian).rates[4]).toBe(25);
    expect(model.turnTimes(italian)).toMatchObject({ labels: ['1–2 covers'], actual: [80], seatings: [3] });
    expect(model.revPashByService(italian).values).toEqual([4]);
    expect(model.totalsSummary(italian).slice(3, 5)).toEqual([
      ['No-shows', '5'],
      ['No-show rate', '25 %'],
    ]);
  });

  it('draws an empty period as empty series', () => {
    const empty = {
      dal: '2030-06-14',
      al: '2030-06-14',
      services: [],
      byHour: [],
      turns: [],
      totals: totals({}),
    };
    expect(model.coversByHour(empty).labels).toEqual([]);
    expect(model.noShowByWeekday(empty).rates.every((r) => r === null)).toBe(true);
    expect(model.turnTimes(empty).labels).toEqual([]);
    expect(model.revPashByService(empty).values).toEqual([]);
  });
});
