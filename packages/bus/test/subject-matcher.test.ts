import { describe, expect, it } from 'vitest';
import {
  isPublishSubject,
  isSubjectPattern,
  isSubjectToken,
  subjectMatches,
} from '../src/subject-matcher.js';

describe('subjectMatches', () => {
  it.each([
    ['tenant.a.restaurant.tables.status', 'tenant.a.restaurant.tables.status', true],
    ['tenant.a.restaurant.tables.status', 'tenant.a.restaurant.tables.statusx', false],
    ['tenant.a.restaurant.tables.status', 'tenant.a.restaurant.tables', false],
    ['tenant.a.restaurant.tables', 'tenant.a.restaurant.tables.status', false],
    ['tenant.*.restaurant.tables.status', 'tenant.a.restaurant.tables.status', true],
    ['tenant.*.restaurant.tables.status', 'tenant.b.restaurant.tables.status', true],
    ['tenant.*.restaurant.tables.status', 'tenant.a.b.restaurant.tables.status', false],
    ['tenant.a.restaurant.*', 'tenant.a.restaurant.tables.status', false],
    ['tenant.a.restaurant.*.*', 'tenant.a.restaurant.tables.status', true],
    ['tenant.a.restaurant.>', 'tenant.a.restaurant.tables.status', true],
    ['tenant.a.restaurant.>', 'tenant.a.restaurant.bookings.created', true],
    ['tenant.a.restaurant.>', 'tenant.b.restaurant.bookings.created', false],
    ['tenant.a.restaurant.>', 'tenant.ab.restaurant.bookings.created', false],
    ['tenant.a.restaurant.>', 'tenant.a.restaurant', false],
    ['tenant.*.restaurant.>', 'tenant.z.restaurant.bookings.cancelled', true],
    ['>', 'anything.at.all', true],
    ['*', 'one', true],
    ['*', 'one.two', false],
    ['tenant.a*.restaurant.x', 'tenant.ab.restaurant.x', false],
    ['tenant.a*.restaurant.x', 'tenant.a*.restaurant.x', true],
  ])('%s matches %s: %s', (pattern, subject, expected) => {
    expect(subjectMatches(pattern, subject)).toBe(expected);
  });

  it('matches nothing for malformed input', () => {
    expect(subjectMatches('', 'a')).toBe(false);
    expect(subjectMatches('a', '')).toBe(false);
    expect(subjectMatches('a..b', 'a..b')).toBe(false);
    expect(subjectMatches('a.>', 'a. b')).toBe(false);
  });
});

describe('subject validation', () => {
  it('accepts literal publish subjects only', () => {
    expect(isPublishSubject('tenant.a.restaurant.tables.status')).toBe(true);
    expect(isPublishSubject('tenant.*.restaurant.tables.status')).toBe(false);
    expect(isPublishSubject('tenant.a.>')).toBe(false);
    expect(isPublishSubject('tenant..a')).toBe(false);
    expect(isPublishSubject('.tenant')).toBe(false);
    expect(isPublishSubject('tenant.')).toBe(false);
    expect(isPublishSubject('ten ant')).toBe(false);
    expect(isPublishSubject('')).toBe(false);
  });

  it('accepts patterns with `>` only at the end', () => {
    expect(isSubjectPattern('tenant.*.restaurant.>')).toBe(true);
    expect(isSubjectPattern('>')).toBe(true);
    expect(isSubjectPattern('tenant.>.restaurant')).toBe(false);
    expect(isSubjectPattern('tenant..>')).toBe(false);
    expect(isSubjectPattern('')).toBe(false);
  });

  it('recognises single tokens (tenant ids must be one)', () => {
    expect(isSubjectToken('acme-01')).toBe(true);
    expect(isSubjectToken('a.b')).toBe(false);
    expect(isSubjectToken('*')).toBe(false);
    expect(isSubjectToken('>')).toBe(false);
    expect(isSubjectToken('a b')).toBe(false);
    expect(isSubjectToken('')).toBe(false);
  });
});
