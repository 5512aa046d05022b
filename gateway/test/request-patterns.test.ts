// The patterns /openapi.json states for a request's dates and emails are the one rule the gateway checks them
// by, and each allows only text the services accept: a date its GraphQL scalar parses (src/rest/date-patterns.ts),
// an email @coperto/domain's isEmailAddress takes once trimmed and lower-cased (as ospiti and bookings read it).
// So the document never allows a value the service refuses (Schemathesis' positive_data_acceptance).
import { DATE_SCALARS, EMAIL_FIELD_PATTERN, isEmailAddress, type DateScalarName } from '@coperto/domain';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DATE_SCALAR_PATTERNS } from '../src/rest/date-patterns.js';

const names = Object.keys(DATE_SCALARS) as DateScalarName[];

describe('date patterns of the REST facade', () => {
  it('has a pattern for every date scalar', () => {
    expect(Object.keys(DATE_SCALAR_PATTERNS).sort()).toEqual([...names].sort());
  });

  it.each(names)('%s: every text its pattern allows is accepted by the scalar', (name) => {
    const pattern = new RegExp(DATE_SCALAR_PATTERNS[name], 'u');
    fc.assert(
      fc.property(fc.stringMatching(pattern), (text) => {
        expect(() => DATE_SCALARS[name].parseValue(text)).not.toThrow();
      }),
      { numRuns: 500 },
    );
  });

  it('DateTime takes an instant without seconds, as sync always did (was ST201: documented as format date-time)', () => {
    const pattern = new RegExp(DATE_SCALAR_PATTERNS.DateTime, 'u');
    for (const text of ['1970-01-01T00:00Z', '2026-12-24T19:00:00.000Z', '2026-12-24T20:00+01:00']) {
      expect(pattern.test(text), text).toBe(true);
      expect(DATE_SCALARS.DateTime.parseValue(text)).toBe(text);
    }
    for (const text of ['2026-12-24T20:00', '2026-12-24', 'tomorrow']) {
      expect(pattern.test(text), text).toBe(false);
    }
  });
});

describe('the email field pattern', () => {
  const field = new RegExp(EMAIL_FIELD_PATTERN, 'u');

  it('allows only an address the services take once trimmed and lower-cased, or nothing', () => {
    fc.assert(
      fc.property(fc.stringMatching(field), (text) => {
        const read = text.trim().toLowerCase();
        expect(read === '' || isEmailAddress(read), JSON.stringify(text)).toBe(true);
      }),
      { numRuns: 1000 },
    );
  });

  it('refuses what ospiti refused (was ST202 on PATCH /api/ospiti/{id}: "email must be an email address")', () => {
    for (const text of ['nope', 'a@b', ' ', 'a b@c.it', 'a@@c.it', 'a\u001c@c.it', 'a\ufeff@c.it']) {
      expect(field.test(text), JSON.stringify(text)).toBe(false);
      expect(isEmailAddress(text.trim().toLowerCase()), JSON.stringify(text)).toBe(false);
    }
    for (const text of ['ugo@example.com', ' Ugo@Example.COM ', '']) {
      expect(field.test(text), JSON.stringify(text)).toBe(true);
    }
  });
});
