import { parse, print } from 'graphql';
import { describe, expect, it } from 'vitest';
import { resumePoint } from '../src/subscriptions/resume-point.js';

const TABLES = parse('subscription ($s: ID, $a: ID) { tableStatusChanged(salaId: $s, after: $a) { id } }');

describe('resume point', () => {
  it('takes after from its variable and leaves it out of the key', () => {
    const one = resumePoint(TABLES, { s: 'r1', a: 'e1' });
    const two = resumePoint(TABLES, { s: 'r1', a: 'e2' });
    expect(one.after).toBe('e1');
    expect(two.after).toBe('e2');
    expect([one.keyDocument, one.keyVariables]).toEqual([two.keyDocument, two.keyVariables]);
    expect(one.keyVariables).toEqual({ s: 'r1' });
    expect(one.keyDocument).not.toContain('after:');
  });

  it('is the same key as the subscription that starts live', () => {
    const resumed = resumePoint(TABLES, { a: 'e1' });
    const live = resumePoint(TABLES, {});
    expect(live.after).toBeUndefined();
    expect([resumed.keyDocument, resumed.keyVariables]).toEqual([live.keyDocument, live.keyVariables]);
    // A document without after is its own print.
    const plain = parse('subscription { bookingCreated { id } }');
    expect(resumePoint(plain, {}).keyDocument).toBe(print(plain));
  });

  it('takes a literal, and an integer as an ID', () => {
    const literal = parse('subscription { bookingCreated(after: "e9") { id } }');
    expect(resumePoint(literal, {}).after).toBe('e9');
    expect(resumePoint(TABLES, { a: 42 }).after).toBe('42');
    expect(resumePoint(TABLES, { a: null }).after).toBeUndefined();
  });

  it('keeps in the key a variable that also fills another argument', () => {
    const shared = parse('subscription ($x: ID) { tableStatusChanged(salaId: $x, after: $x) { id } }');
    expect(resumePoint(shared, { x: 'r1' }).keyVariables).toEqual({ x: 'r1' });
  });

  it('refuses a value that is no ID', () => {
    expect(() => resumePoint(TABLES, { a: { id: 1 } })).toThrow(/ID cannot represent/);
    expect(() => resumePoint(TABLES, { a: 1.5 })).toThrow(/ID cannot represent/);
  });
});
