import { describe, expect, it } from 'vitest';
import { ACTIVE_BOOKING_STATES, isActiveBookingState, turnMinutes } from '../src/seating.js';

describe('turnMinutes', () => {
  const rows = [
    { maxCovers: 2, minutes: 90 },
    { maxCovers: 4, minutes: 105 },
    { maxCovers: 8, minutes: 150 },
  ];

  it('takes the first row whose maxCovers holds the party', () => {
    expect(turnMinutes(rows, 1)).toBe(90);
    expect(turnMinutes(rows, 2)).toBe(90);
    expect(turnMinutes(rows, 3)).toBe(105);
    expect(turnMinutes(rows, 8)).toBe(150);
  });

  it("beyond the last row takes the last row's minutes", () => {
    expect(turnMinutes(rows, 12)).toBe(150);
  });

  it('without rows takes the default meal duration', () => {
    expect(turnMinutes([], 4, 100)).toBe(100);
    expect(turnMinutes(null, 4, 100)).toBe(100);
    expect(turnMinutes(undefined, 4)).toBe(120);
  });
});

describe('active booking states', () => {
  it('are pending, confermata and caparra_pagata', () => {
    expect([...ACTIVE_BOOKING_STATES]).toEqual(['pending', 'confermata', 'caparra_pagata']);
    expect(isActiveBookingState('confermata')).toBe(true);
    expect(isActiveBookingState('completata')).toBe(false);
    expect(isActiveBookingState('no_show')).toBe(false);
  });
});
