import { describe, expect, it } from 'vitest';
import { codePointsAtLeast, InputChecks } from '../src/index.js';

const issuesOf = (check: (checks: InputChecks) => void) => {
  const checks = new InputChecks();
  check(checks);
  return checks.issues;
};

describe('InputChecks.text counts characters as JSON Schema does (code points)', () => {
  // Regression (Schemathesis ST202, GET /api/ospiti?tag=): "The quick brown fox jumps over the lazy dog" in
  // mathematical double-struck letters is 43 characters but 86 UTF-16 units, and was refused at maxLength 50.
  const doubleStruck = (text: string) =>
    [...text]
      .map((c) => (/[a-z]/.test(c) ? String.fromCodePoint(0x1d552 + c.charCodeAt(0) - 97) : c))
      .join('');

  it('accepts a text of astral characters within the maximum, refuses one past it', () => {
    const fox = doubleStruck('the quick brown fox jumps over the lazy dog');
    expect(fox.length).toBe(78);
    expect([...fox].length).toBe(43);
    expect(issuesOf((c) => c.text('tag', fox, { max: 50 }))).toEqual([]);
    const long = doubleStruck('a'.repeat(51));
    expect(issuesOf((c) => c.text('tag', long, { max: 50 }))).toEqual([
      { field: 'tag', message: 'must have at most 50 characters' },
    ]);
    expect(issuesOf((c) => c.text('tag', long.slice(0, 100), { max: 50 }))).toEqual([]);
  });

  it('counts the minimum in characters too, after trimming', () => {
    expect(issuesOf((c) => c.text('name', ` ${doubleStruck('a')} `, { min: 2, max: 10 }))).toEqual([
      { field: 'name', message: 'must have at least 2 characters' },
    ]);
    expect(issuesOf((c) => c.text('name', doubleStruck('ab'), { min: 2, max: 10 }))).toEqual([]);
    expect(issuesOf((c) => c.text('name', '   ', { min: 1, max: 10 }))).toEqual([
      { field: 'name', message: 'must not be empty' },
    ]);
  });

  it('codePointsAtLeast stops counting as soon as it knows', () => {
    expect(codePointsAtLeast('', 0)).toBe(true);
    expect(codePointsAtLeast('abc', 4)).toBe(false);
    expect(codePointsAtLeast('abcd', 2)).toBe(true);
    expect(codePointsAtLeast('\u{1d552}\u{1d553}', 3)).toBe(false);
    expect(codePointsAtLeast('\u{1d552}\u{1d553}', 2)).toBe(true);
  });
});
