import { ValidationError } from '@coperto/errors';
import { describe, expect, it } from 'vitest';
import { InputChecks } from '../src/input-checks.js';
import { preferEnglish } from '../src/prefer-english.js';

describe('InputChecks', () => {
  it('collects every bad field before failing', () => {
    const checks = new InputChecks()
      .intInRange('covers', 0, 1, 50)
      .text('name', '  ', { min: 1, max: 10 })
      .required('tableIds', undefined)
      .positive('width', 3);
    expect(checks.issues).toEqual([
      { field: 'covers', message: 'must be an integer from 1 to 50' },
      { field: 'name', message: 'must not be empty' },
      { field: 'tableIds', message: 'is required' },
    ]);
    expect(() => checks.throwIfAny()).toThrow(ValidationError);
  });

  it('passes absent optional values and valid ones', () => {
    expect(() =>
      new InputChecks().intInRange('covers', undefined, 1, 50).numberInRange('x', 4, 0, 10).throwIfAny(),
    ).not.toThrow();
  });
});

describe('preferEnglish', () => {
  it('takes the English field when both are sent, else whichever is', () => {
    expect(preferEnglish('Terrace', 'Terrazza')).toBe('Terrace');
    expect(preferEnglish(null, 'Terrazza')).toBe('Terrazza');
    expect(preferEnglish(undefined, null)).toBeUndefined();
  });
});
