import { describe, expect, it } from 'vitest';
import { ValidationError } from '@coperto/errors';
import { InputChecks } from '@coperto/domain';
import type { OpeningDayInput, SlotConfigInput } from '../src/generated/resolvers-types.js';
import { checkOpeningDays, minutesOfClock, replaceDays } from '../src/opening-hours.js';
import { defaultSlotConfig } from '../src/slot-config-record.js';
import { checkSlotConfigInput } from '../src/slot-config-service.js';
import { canonicalTimeZone } from '../src/time-zone.js';

const fieldsOf = (input: SlotConfigInput): string[] => {
  try {
    checkSlotConfigInput(input);
    return [];
  } catch (error) {
    return (error as ValidationError).issues.map((i) => i.field);
  }
};

const day = (weekday: number, ...intervals: Array<[string, string]>): OpeningDayInput => ({
  weekday,
  intervals: intervals.map(([open, close]) => ({ open, close })),
});

describe('slot settings', () => {
  it('defaults to 15-minute slots, lunch and dinner every day, 40 covers, 120-minute meals, the given zone', () => {
    const config = defaultSlotConfig('Europe/Rome');
    expect(config).toMatchObject({
      slotMinutes: 15,
      maxCoversPerSlot: 40,
      defaultMealMinutes: 120,
      timeZone: 'Europe/Rome',
      turnTimes: [],
      reseat: true,
      reseatFreezeMinutes: 60,
      shortenedMinMinutes: null,
      reminders: [{ hoursBefore: 24 }],
      remindersUpdatedAt: null,
      customized: false,
      updatedAt: null,
    });
    expect(config.openingHours).toHaveLength(7);
    for (const intervals of config.openingHours) {
      expect(intervals).toEqual([
        { open: '12:00', close: '15:00' },
        { open: '19:00', close: '23:00' },
      ]);
    }
  });

  it('accepts every field at the edges of its range', () => {
    expect(fieldsOf({ slotMinutes: 5, maxCoversPerSlot: 0, defaultMealMinutes: 1 })).toEqual([]);
    expect(fieldsOf({ slotMinutes: 240, maxCoversPerSlot: 100_000, defaultMealMinutes: 720 })).toEqual([]);
    expect(fieldsOf({ openingHours: [day(0), day(6, ['00:00', '24:00'])], timeZone: 'UTC' })).toEqual([]);
    expect(fieldsOf({ turnTimes: [], reseat: false, reseatFreezeMinutes: 0 })).toEqual([]);
    expect(fieldsOf({ shortenedMinMinutes: 30 })).toEqual([]);
    expect(fieldsOf({ shortenedMinMinutes: 600 })).toEqual([]);
    expect(fieldsOf({ shortenedMinMinutes: null })).toEqual([]);
    expect(fieldsOf({ reminders: [] })).toEqual([]);
    expect(fieldsOf({ promemoria: [1, 720, 2, 3, 4].map((orePrima) => ({ orePrima })) })).toEqual([]);
    expect(
      fieldsOf({
        turnTimes: [
          { maxCovers: 1, minutes: 15 },
          { maxCovers: 1000, minutes: 720 },
        ],
        reseatFreezeMinutes: 1440,
      }),
    ).toEqual([]);
    expect(
      fieldsOf({ turnTimes: Array.from({ length: 20 }, (_, i) => ({ maxCovers: i + 1, minutes: 60 })) }),
    ).toEqual([]);
  });

  it.each([
    [{ slotMinutes: 0 }, 'slotMinutes'],
    [{ slotMinutes: 4 }, 'slotMinutes'],
    [{ slotMinutes: 241 }, 'slotMinutes'],
    [{ maxCoversPerSlot: -1 }, 'maxCoversPerSlot'],
    [{ defaultMealMinutes: 0 }, 'defaultMealMinutes'],
    [{ defaultMealMinutes: 721 }, 'defaultMealMinutes'],
    [{ timeZone: 'Mars/Olympus' }, 'timeZone'],
    [{ timeZone: '+01:00' }, 'timeZone'],
    [{ timeZone: '' }, 'timeZone'],
    [{ slotMinutes: null }, 'slotMinutes'],
    [{ turnTimes: null }, 'turnTimes'],
    [{ reseat: null }, 'reseat'],
    [{ reseatFreezeMinutes: -1 }, 'reseatFreezeMinutes'],
    [{ reseatFreezeMinutes: 1441 }, 'reseatFreezeMinutes'],
    [{ shortenedMinMinutes: 29 }, 'shortenedMinMinutes'],
    [{ shortenedMinMinutes: 601 }, 'shortenedMinMinutes'],
    [{ shortenedMinMinutes: 45.5 }, 'shortenedMinMinutes'],
    [{ turnTimes: [{ maxCovers: 0, minutes: 60 }] }, 'turnTimes.0.maxCovers'],
    [{ turnTimes: [{ maxCovers: 2, minutes: 14 }] }, 'turnTimes.0.minutes'],
    [{ turnTimes: [{ maxCovers: 2, minutes: 721 }] }, 'turnTimes.0.minutes'],
    [{ turnTimes: [{ maxCovers: 2, minutes: 90.5 }] }, 'turnTimes.0.minutes'],
    [
      {
        turnTimes: [
          { maxCovers: 4, minutes: 90 },
          { maxCovers: 4, minutes: 120 },
        ],
      },
      'turnTimes.1.maxCovers',
    ],
    [
      {
        turnTimes: [
          { maxCovers: 6, minutes: 90 },
          { maxCovers: 2, minutes: 60 },
        ],
      },
      'turnTimes.1.maxCovers',
    ],
    [{ turnTimes: Array.from({ length: 21 }, (_, i) => ({ maxCovers: i + 1, minutes: 60 })) }, 'turnTimes'],
    [{ openingHours: [day(7)] }, 'openingHours.0.weekday'],
    [{ openingHours: [day(1), day(1)] }, 'openingHours.1.weekday'],
    [{ openingHours: [day(1, ['9:00', '12:00'])] }, 'openingHours.0.intervals.0.open'],
    [{ openingHours: [day(1, ['12:00', '25:00'])] }, 'openingHours.0.intervals.0.close'],
    [{ openingHours: [day(1, ['24:00', '24:00'])] }, 'openingHours.0.intervals.0.open'],
    [{ openingHours: [day(1, ['15:00', '12:00'])] }, 'openingHours.0.intervals.0.close'],
    [{ openingHours: [day(1, ['12:00', '12:00'])] }, 'openingHours.0.intervals.0.close'],
    [{ openingHours: [day(1, ['19:00', '23:00'], ['12:00', '19:30'])] }, 'openingHours.0.intervals.0'],
    [{ reminders: [{ hoursBefore: 0 }] }, 'reminders.0.hoursBefore'],
    [{ promemoria: [{ orePrima: 24 }, { orePrima: 721 }] }, 'reminders.1.hoursBefore'],
    [{ reminders: [{ hoursBefore: 1.5 }] }, 'reminders.0.hoursBefore'],
    [{ promemoria: [{ orePrima: 24 }, {}] }, 'reminders.1.hoursBefore'],
    [{ reminders: [{ hoursBefore: 2 }, { orePrima: 2 }] }, 'reminders'],
    [{ reminders: [1, 2, 3, 4, 5, 6].map((hoursBefore) => ({ hoursBefore })) }, 'reminders'],
    [{ reminders: null }, 'reminders'],
    [{ promemoria: null }, 'reminders'],
  ] as Array<[SlotConfigInput, string]>)('refuses %j naming %s', (input, field) => {
    expect(fieldsOf(input)).toEqual([field]);
  });

  it('names every bad field at once', () => {
    expect(fieldsOf({ slotMinutes: 1, maxCoversPerSlot: -5, timeZone: 'Nowhere' }).sort()).toEqual([
      'maxCoversPerSlot',
      'slotMinutes',
      'timeZone',
    ]);
  });

  it('reads reminder rules under either name (the English one wins), largest first', () => {
    expect(
      checkSlotConfigInput({ reminders: [{ hoursBefore: 2 }, { orePrima: 48, hoursBefore: 24 }] }).reminders,
    ).toEqual([{ hoursBefore: 24 }, { hoursBefore: 2 }]);
    expect(checkSlotConfigInput({ promemoria: [{ orePrima: 3 }], reminders: [] }).reminders).toEqual([]);
    expect(checkSlotConfigInput({ slotMinutes: 30 }).reminders).toBeUndefined();
  });

  it('stores the canonical spelling of a zone', () => {
    expect(checkSlotConfigInput({ timeZone: 'europe/rome' }).timeZone).toBe('Europe/Rome');
    expect(canonicalTimeZone('America/New_York')).toBe('America/New_York');
    expect(canonicalTimeZone('Europe/Nowhere')).toBeNull();
  });
});

describe('opening hours', () => {
  it('reads HH:MM, with 24:00 only as a closing time', () => {
    expect(minutesOfClock('00:00')).toBe(0);
    expect(minutesOfClock('23:59')).toBe(23 * 60 + 59);
    expect(minutesOfClock('24:00')).toBeNull();
    expect(minutesOfClock('24:00', { closing: true })).toBe(1440);
    expect(['7:00', '07:60', '0700', '07:00:00', ' 07:00'].map((t) => minutesOfClock(t))).toEqual([
      null,
      null,
      null,
      null,
      null,
    ]);
  });

  it('lets touching intervals of a day through', () => {
    const checks = new InputChecks();
    checkOpeningDays([day(2, ['12:00', '15:00'], ['15:00', '18:00'])], checks);
    expect(checks.issues).toEqual([]);
  });

  it('replaces only the days sent, sorting their intervals; [] closes a day', () => {
    const week = defaultSlotConfig('Europe/Rome').openingHours;
    const next = replaceDays(week, [day(1), day(5, ['19:00', '24:00'], ['11:30', '14:30'])]);
    expect(next[1]).toEqual([]);
    expect(next[5]).toEqual([
      { open: '11:30', close: '14:30' },
      { open: '19:00', close: '24:00' },
    ]);
    expect(next[0]).toEqual(week[0]);
    expect(week[1]).toHaveLength(2);
  });
});
