import { describe, expect, it } from 'vitest';
import { deferred } from '@coperto/testkit';
import { createSingleFlight } from '../src/index.js';

describe('createSingleFlight', () => {
  it('shares one running load between callers of the same key, not between keys', async () => {
    const flight = createSingleFlight();
    const gate = deferred<string>();
    let loads = 0;
    const load = () => {
      loads += 1;
      return gate.promise;
    };
    const callers = [flight.run('a', load), flight.run('a', load), flight.run('a', load)];
    const other = flight.run('b', async () => 'b');
    expect(loads).toBe(1);
    expect(flight.size).toBe(2);
    gate.resolve('value');
    expect(await Promise.all(callers)).toEqual(['value', 'value', 'value']);
    expect(await other).toBe('b');
    expect(flight.size).toBe(0);
  });

  it('starts a new load once the previous one has settled', async () => {
    const flight = createSingleFlight();
    let loads = 0;
    const load = async () => ++loads;
    expect(await flight.run('k', load)).toBe(1);
    expect(await flight.run('k', load)).toBe(2);
  });

  it('shares a rejection, also of a load that throws synchronously, and then forgets it', async () => {
    const flight = createSingleFlight();
    const gate = deferred<number>();
    const a = flight.run('k', () => gate.promise);
    const b = flight.run('k', async () => 1);
    gate.reject(new Error('store down'));
    await expect(a).rejects.toThrow('store down');
    await expect(b).rejects.toThrow('store down');
    const sync = flight.run('s', () => {
      throw new Error('sync');
    });
    await expect(sync).rejects.toThrow('sync');
    expect(flight.size).toBe(0);
    expect(await flight.run('k', async () => 2)).toBe(2);
  });
});
