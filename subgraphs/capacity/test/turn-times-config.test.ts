import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { trustedTenantId, type TenantId, type Viewer } from '@coperto/auth';
import { openEmbeddedStore, type DocumentStore } from '@coperto/store';
import { SlotConfigService } from '../src/slot-config-service.js';
import type { SlotConfigRecord } from '../src/slot-config-record.js';
import { SLOT_CONFIG_COLLECTION, SlotConfigStore } from '../src/slot-config-store.js';

/** A fresh tenant id (the format @coperto/testkit's newTenantId makes). */
const newTenantId = (): TenantId => trustedTenantId(`t_${randomBytes(5).toString('hex')}`);

/** The turn times and re-seating settings through the service, stored in the embedded store. */
describe('turn time settings (SlotConfigService, embedded store)', () => {
  let dir: string;
  let store: DocumentStore;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'capacity-turn-times-'));
    store = await openEmbeddedStore({ directory: dir, fsync: false });
  });
  afterAll(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const service = (tenantId: TenantId, isAdmin = true) => {
    const viewer: Viewer = { tenantId, subject: null, roles: [], isAdmin, token: 'unused' };
    return new SlotConfigService({
      store: new SlotConfigStore(store.forTenant(tenantId)),
      viewer,
      timeZone: 'Europe/Rome',
      now: () => new Date('2027-01-01T10:00:00Z'),
      onEventsWritten: () => {},
    });
  };

  it('stores the rows, keeps them when other fields change, and replaces them when sent again', async () => {
    const config = service(newTenantId());
    const rows = [
      { maxCovers: 2, minutes: 90 },
      { maxCovers: 6, minutes: 150 },
    ];
    expect(await config.update({ turnTimes: rows, reseat: false })).toMatchObject({
      turnTimes: rows,
      reseat: false,
      reseatFreezeMinutes: 60,
    });
    expect(await config.update({ slotMinutes: 30, reseatFreezeMinutes: 0 })).toMatchObject({
      turnTimes: rows,
      reseat: false,
      reseatFreezeMinutes: 0,
      slotMinutes: 30,
    });
    expect((await config.update({ turnTimes: [] })).turnTimes).toEqual([]);
    await expect(config.update({ turnTimes: [{ maxCovers: 3, minutes: 5 }] })).rejects.toMatchObject({
      code: 'VALIDATION_FAILED',
    });
    expect((await config.get()).turnTimes).toEqual([]);
  });

  it('reads a record saved before turn times existed with their defaults', async () => {
    const tenantId = newTenantId();
    await store
      .forTenant(tenantId)
      .collection<SlotConfigRecord>(SLOT_CONFIG_COLLECTION)
      .insertOne({
        id: 'default',
        slotMinutes: 15,
        openingHours: Array.from({ length: 7 }, () => []),
        maxCoversPerSlot: 40,
        defaultMealMinutes: 100,
        timeZone: 'Europe/Rome',
        version: 1,
        createdAt: '2026-01-01T00:00:00Z',
        updatedAt: '2026-01-01T00:00:00Z',
      });
    expect(await service(tenantId, false).get()).toMatchObject({
      defaultMealMinutes: 100,
      turnTimes: [],
      reseat: true,
      reseatFreezeMinutes: 60,
      shortenedMinMinutes: null,
      customized: true,
    });
  });

  it('stores shortenedMinMinutes, keeps it while other fields change, and turns it off with null', async () => {
    const config = service(newTenantId());
    expect((await config.get()).shortenedMinMinutes).toBeNull();
    expect((await config.update({ shortenedMinMinutes: 45 })).shortenedMinMinutes).toBe(45);
    expect((await config.update({ reseat: false })).shortenedMinMinutes).toBe(45);
    await expect(config.update({ shortenedMinMinutes: 29 })).rejects.toMatchObject({
      code: 'VALIDATION_FAILED',
    });
    expect((await config.get()).shortenedMinMinutes).toBe(45);
    expect((await config.update({ shortenedMinMinutes: null })).shortenedMinMinutes).toBeNull();
  });

  it('lets only an administrator change them', async () => {
    await expect(service(newTenantId(), false).update({ turnTimes: [] })).rejects.toMatchObject({
      code: 'FORBIDDEN',
    });
  });
});
