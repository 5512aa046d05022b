import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TenantId, Viewer } from '@coperto/auth';
import { DuplicateError, InUseError, NotFoundError, ValidationError } from '@coperto/errors';
import type { SubgraphClient } from '@coperto/server-kit';
import { openEmbeddedStore, type DocumentStore } from '@coperto/store';
import { newTenantId } from '@coperto/testkit';
import { normalizeCodice, salaName } from '../src/sala-record.js';
import { SalaService } from '../src/sala-service.js';
import { ensureSaleIndexes, SalaStore } from '../src/sala-store.js';

describe('room names and codes', () => {
  it('trims and upper-cases a code', () => {
    expect(normalizeCodice('  terrazza ')).toBe('TERRAZZA');
  });

  it('names a room by its description, or by its code when the description is missing or blank', () => {
    expect(salaName({ codice: 'T1', descrizione: 'Terrazza' })).toBe('Terrazza');
    expect(salaName({ codice: 'T1', descrizione: null })).toBe('T1');
    expect(salaName({ codice: 'T1', descrizione: '   ' })).toBe('T1');
  });
});

describe('SalaService on the embedded store', () => {
  let dir: string;
  let store: DocumentStore;
  /** The tables tavolo answers for a room: what `delete` asks before removing it. */
  const tablesInRoom = new Map<string, string[]>();
  const subgraphs: SubgraphClient = {
    // Only the one call sala makes (TablesInRoom); tavolo's own rules are tested in tavolo and end to end.
    request: async <TResult, TVariables>(subgraph: string, _document: unknown, variables: TVariables) => {
      expect(subgraph).toBe('tavolo');
      const { salaId } = variables as { salaId: string };
      return { tavoli: (tablesInRoom.get(salaId) ?? []).map((id) => ({ id })) } as TResult;
    },
  };

  const serviceFor = (tenantId: string, onRoomsChanged: () => Promise<void> = async () => {}) =>
    new SalaService({
      store: new SalaStore(store.forTenant(tenantId as TenantId)),
      viewer: {
        tenantId: tenantId as TenantId,
        subject: null,
        roles: [],
        isAdmin: false,
        token: 'unused',
      } satisfies Viewer,
      subgraphs,
      now: () => new Date('2027-03-01T10:00:00Z'),
      onRoomsChanged,
    });

  const issuesOf = async (write: () => Promise<unknown>): Promise<string[]> => {
    const error = await write().then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ValidationError);
    return (error as ValidationError).issues.map((issue) => issue.field);
  };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'sala-service-'));
    store = await openEmbeddedStore({ directory: dir, fsync: false });
    await ensureSaleIndexes(store);
  });

  afterAll(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('creates a room with its defaults and an upper-cased code, and replaces the read scope before answering', async () => {
    let scopeReplaced = 0;
    const sale = serviceFor(newTenantId(), async () => {
      scopeReplaced++;
    });
    const created = await sale.create({ codice: ' sala1 ', descrizione: '  Sala grande ' });
    expect(created).toMatchObject({
      codice: 'SALA1',
      descrizione: 'Sala grande',
      width: 800,
      height: 600,
      version: 1,
      createdAt: '2027-03-01T10:00:00.000Z',
      updatedAt: '2027-03-01T10:00:00.000Z',
    });
    expect(scopeReplaced).toBe(1);
    expect(await sale.get(created.id)).toEqual(created);
  });

  it('names every invalid field at once', async () => {
    const sale = serviceFor(newTenantId());
    expect(
      await issuesOf(() => sale.create({ codice: '  ', descrizione: 'x'.repeat(501), width: 0, height: -1 })),
    ).toEqual(['codice', 'descrizione', 'width', 'height']);
    expect(await issuesOf(() => sale.create({ codice: 'x'.repeat(51) }))).toEqual(['codice']);
    const room = await sale.create({ codice: 'A' });
    expect(await issuesOf(() => sale.update(room.id, { codice: null }))).toEqual(['codice']);
  });

  it('keeps codes unique per tenant, also when a code only differs in case and spaces', async () => {
    const tenant = serviceFor(newTenantId());
    await tenant.create({ codice: 'BAR' });
    await expect(tenant.create({ codice: ' bar' })).rejects.toBeInstanceOf(DuplicateError);
    const other = await tenant.create({ codice: 'TERRAZZA' });
    await expect(tenant.update(other.id, { codice: 'bar' })).rejects.toBeInstanceOf(DuplicateError);
    // Another tenant may use the same code.
    await expect(serviceFor(newTenantId()).create({ codice: 'BAR' })).resolves.toMatchObject({
      codice: 'BAR',
    });
  });

  it('updates only the fields given, clears a description set to null, and counts versions', async () => {
    const sale = serviceFor(newTenantId());
    const room = await sale.create({ codice: 'A', descrizione: 'Sala A', width: 1000 });
    const resized = await sale.update(room.id, { height: 900 });
    expect(resized).toMatchObject({
      codice: 'A',
      descrizione: 'Sala A',
      width: 1000,
      height: 900,
      version: 2,
    });
    const cleared = await sale.update(room.id, { descrizione: null });
    expect(cleared).toMatchObject({ descrizione: null, version: 3 });
  });

  it('lists a tenant its own rooms only, by code, and treats another tenant’s id as unknown', async () => {
    const mine = serviceFor(newTenantId());
    const theirs = serviceFor(newTenantId());
    await mine.create({ codice: 'Z' });
    await mine.create({ codice: 'A' });
    const foreign = await theirs.create({ codice: 'M' });
    expect((await mine.list()).map((s) => s.codice)).toEqual(['A', 'Z']);
    expect(await mine.get(foreign.id)).toBeNull();
    await expect(mine.update(foreign.id, { width: 10 })).rejects.toBeInstanceOf(NotFoundError);
    await expect(mine.delete(foreign.id)).rejects.toBeInstanceOf(NotFoundError);
    expect(await theirs.get(foreign.id)).toMatchObject({ codice: 'M', width: 800 });
  });

  it('refuses to delete a room while tables use it, naming them, and deletes it once they are gone', async () => {
    const sale = serviceFor(newTenantId());
    const room = await sale.create({ codice: 'DEL' });
    tablesInRoom.set(room.id, ['t1', 't2']);
    const refused = await sale.delete(room.id).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(InUseError);
    expect((refused as InUseError).details).toEqual({ tableIds: ['t1', 't2'] });
    expect(await sale.get(room.id)).not.toBeNull();
    tablesInRoom.delete(room.id);
    expect(await sale.delete(room.id)).toEqual({ id: room.id, deleted: true });
    expect(await sale.get(room.id)).toBeNull();
  });
});
