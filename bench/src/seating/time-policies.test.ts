import { describe, expect, it } from 'vitest';
import { reseatFor, shortenedFor } from './policies.js';
import {
  clockOfMinute,
  nearestWithin,
  offeredBooking,
  retryTimes,
  SHORTENED_MIN_MINUTES,
  type OfferedTime,
} from './time-policies.js';

const offer = (time: string, shortened = false, durationMinutes = 105): OfferedTime => ({
  time,
  bookingDate: `2031-01-13T${time}:00`,
  durationMinutes,
  shortened,
});
const at = (clock: string) => Number(clock.slice(0, 2)) * 60 + Number(clock.slice(3));
/** A guest who takes any time within ±30 minutes and a shortened seating of 60 minutes or more. */
const guest = { toleranceMinutes: 30, shortestStayMinutes: 60 };

describe('times policy: the nearest offered time the guest takes', () => {
  it('takes the nearest, the earlier of two equally near, whatever order the service lists them in', () => {
    const offered = [offer('20:30'), offer('19:45'), offer('20:15')];
    expect(nearestWithin(offered, at('20:00'), guest)?.time).toBe('19:45');
    expect(nearestWithin([offer('20:30'), offer('20:15')], at('20:00'), guest)?.time).toBe('20:15');
    expect(nearestWithin([offer('20:00'), offer('19:45')], at('20:00'), guest)?.time).toBe('20:00');
  });

  it('gives up when every offered time is farther than his tolerance', () => {
    expect(nearestWithin([offer('19:30'), offer('20:30')], at('20:00'), guest)?.time).toBe('19:30');
    expect(nearestWithin([offer('19:15'), offer('20:45'), offer('21:00')], at('20:00'), guest)).toBeNull();
    expect(nearestWithin([], at('20:00'), guest)).toBeNull();
    // A guest who will not move takes only the asked time; one who bends an hour takes 21:00.
    const rigid = { ...guest, toleranceMinutes: 0 };
    expect(nearestWithin([offer('19:45'), offer('20:15')], at('20:00'), rigid)).toBeNull();
    expect(nearestWithin([offer('20:00')], at('20:00'), rigid)?.time).toBe('20:00');
    const wide = { ...guest, toleranceMinutes: 60 };
    expect(nearestWithin([offer('21:00'), offer('21:15')], at('20:00'), wide)?.time).toBe('21:00');
  });

  it('passes over a shortened seating shorter than the guest accepts for a farther one he does', () => {
    const offered = [offer('20:00', true, 75), offer('20:30')];
    expect(nearestWithin(offered, at('20:00'), guest)?.time).toBe('20:00');
    const longer = { ...guest, shortestStayMinutes: 90 };
    expect(nearestWithin(offered, at('20:00'), longer)?.time).toBe('20:30');
    expect(nearestWithin([offer('20:00', true, 75)], at('20:00'), longer)).toBeNull();
  });

  it('books a shortened time with its duration, a full one without', () => {
    expect(offeredBooking(offer('19:00', true, 75))).toEqual({
      bookingDate: '2031-01-13T19:00:00',
      durationMinutes: 75,
    });
    expect(offeredBooking(offer('19:00'))).toEqual({ bookingDate: '2031-01-13T19:00:00' });
  });

  it('runs with re-seating on; only times-shortened turns shortened seatings on', () => {
    expect([reseatFor('retry'), reseatFor('times'), reseatFor('times-shortened')]).toEqual([
      true,
      true,
      true,
    ]);
    expect([shortenedFor('retry'), shortenedFor('times'), shortenedFor('times-shortened')]).toEqual([
      null,
      null,
      SHORTENED_MIN_MINUTES,
    ]);
  });
});

describe('retry policy', () => {
  it('tries the asked time, then ±15, ±30 … minutes as far as his tolerance, within the booking hours', () => {
    expect(retryTimes(at('20:00'), at('18:00'), at('21:30'), 30).map(clockOfMinute)).toEqual([
      '20:00',
      '19:45',
      '20:15',
      '19:30',
      '20:30',
    ]);
    expect(retryTimes(at('18:15'), at('18:00'), at('21:30'), 30).map(clockOfMinute)).toEqual([
      '18:15',
      '18:00',
      '18:30',
      '18:45',
    ]);
    expect(retryTimes(at('20:00'), at('18:00'), at('21:30'), 0).map(clockOfMinute)).toEqual(['20:00']);
    expect(retryTimes(at('21:00'), at('18:00'), at('21:30'), 60).map(clockOfMinute)).toEqual([
      '21:00',
      '20:45',
      '21:15',
      '20:30',
      '21:30',
      '20:15',
      '20:00',
    ]);
  });
});
