import { describe, expect, it } from 'vitest';
import { httpStatusOf, WriteConflictError } from '@coperto/errors';
import { changeGuest } from '../src/guest-writes.js';
import type { OspiteRecord } from '../src/ospite-record.js';
import type { OspitiStore } from '../src/ospiti-store.js';

const guest = { id: 'g1', nome: 'Rossi', version: 1, unitoIn: null } as unknown as OspiteRecord;

describe('a guest write that loses every compare-and-set', () => {
  it('is a 409 WRITE_CONFLICT naming the guest (a retryable refusal), not a 500', async () => {
    let attempts = 0;
    // Another device writes the guest between each read and write: every conditional replace misses.
    const store = {
      guest: async () => ({ ...guest, version: guest.version + attempts }),
      replaceGuest: async () => {
        attempts++;
        return null;
      },
    } as unknown as OspitiStore;
    const refused = await changeGuest(
      store,
      'g1',
      () => new Date('2026-11-28T20:00:00Z'),
      (current) => ({
        ...current,
        note: 'window seat',
      }),
    ).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(WriteConflictError);
    expect(refused).toMatchObject({ code: 'WRITE_CONFLICT', details: { type: 'Ospite', id: 'g1' } });
    expect(httpStatusOf((refused as WriteConflictError).code)).toBe(409);
    expect(attempts).toBeGreaterThan(1);
  });
});
