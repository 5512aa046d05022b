import { describe, expect, it } from 'vitest';
import { markArrival, type CloudEvent } from '@coperto/bus';
import { createResumeSeam } from '../src/subscriptions/resume-seam.js';

const event = (id: string, sequence?: number) =>
  markArrival({ id } as CloudEvent, 'tenant.a.restaurant.tables.status', sequence);

describe('resume seam', () => {
  it('holds live events during the replay, then lets through only those after its end, in order', () => {
    const out: string[] = [];
    const seam = createResumeSeam((payload) => out.push(payload));
    seam.live('s5', event('e5', 5));
    seam.live('s6', event('e6', 6));
    seam.live('s7', event('e7', 7));
    expect(out).toEqual([]);
    seam.replayed(6, ['e4', 'e5', 'e6']);
    expect(out).toEqual(['s7']);
  });

  it("drops what a lagging feed brings after the seam opened, up to the replay's end", () => {
    const out: string[] = [];
    const seam = createResumeSeam((payload) => out.push(payload));
    seam.replayed(10, ['e9', 'e10']);
    // This gateway's feed was behind the stream the replay read.
    for (const n of [3, 9, 10, 11, 12]) seam.live(`s${n}`, event(`e${n}`, n));
    expect(out).toEqual(['s11', 's12']);
  });

  it('compares by id an event that carries no sequence', () => {
    const out: string[] = [];
    const seam = createResumeSeam((payload) => out.push(payload));
    seam.replayed(2, ['a', 'b']);
    seam.live('b', event('b'));
    seam.live('c', event('c'));
    expect(out).toEqual(['c']);
  });
});
