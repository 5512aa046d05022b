import { describe, expect, it } from 'vitest';
import { trustedTenantId, type Viewer } from '@coperto/auth';
import { httpStatusOf, WriteConflictError } from '@coperto/errors';
import type { SubgraphClient } from '@coperto/server-kit';
import type { TavoloRecord } from '../src/tables/tavolo-record.js';
import { TavoloService } from '../src/tables/tavolo-service.js';
import type { TavoloStore } from '../src/tables/tavolo-store.js';

const table: TavoloRecord = {
  id: 't1',
  nome: 'T1',
  capacita: 4,
  stato: 'free',
  salaId: null,
  attivo: true,
  posizione: null,
  orderId: null,
  pax: null,
  totalAmount: null,
  lock: null,
  version: 1,
  createdAt: '2026-11-28T10:00:00.000Z',
  updatedAt: '2026-11-28T10:00:00.000Z',
} as TavoloRecord;

describe('a table write that loses every compare-and-set', () => {
  it('is a 409 WRITE_CONFLICT naming the table (a retryable refusal), not a 500, and writes nothing', async () => {
    let attempts = 0;
    // Another device writes the table between each read and write: every conditional update misses.
    const store = {
      findById: async () => ({ ...table, version: table.version + attempts }),
      update: async () => {
        attempts++;
        return null;
      },
    } as unknown as TavoloStore;
    let changed = 0;
    const service = new TavoloService({
      store,
      viewer: {
        tenantId: trustedTenantId('t_conflict'),
        subject: null,
        roles: [],
        isAdmin: false,
        token: 'token',
      } satisfies Viewer,
      subgraphs: {} as SubgraphClient,
      now: () => new Date('2026-11-28T20:00:00Z'),
      onEventsWritten: () => {},
      onTablesChanged: async () => void changed++,
      onTableDeleted: async () => {},
    });
    const refused = await service.setStatus('t1', { status: 'occupied' }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(WriteConflictError);
    expect(refused).toMatchObject({ code: 'WRITE_CONFLICT', details: { type: 'Tavolo', id: 't1' } });
    expect(httpStatusOf((refused as WriteConflictError).code)).toBe(409);
    expect(attempts).toBeGreaterThan(1);
    expect(changed).toBe(0);
  });
});
