import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { trustedTenantId, type TenantId, type Viewer } from '@coperto/auth';
import { openEmbeddedStore, type DocumentStore } from '@coperto/store';
import { SlotConfigService } from '../src/slot-config-service.js';
import { SLOT_CONFIG_COLLECTION, SlotConfigStore } from '../src/slot-config-store.js';

const newTenantId = (): TenantId => trustedTenantId(`t_${randomBytes(5).toString('hex')}`);

/** The reminder rules of the capacity config, and the event each change stores, through the embedded store. */
describe('reminder rules in the capacity config (SlotConfigService, embedded store)', () => {
  let dir: string;
  let store: DocumentStore;
  let clock = new Date('2027-01-01T10:00:00Z');

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'capacity-reminders-'));
    store = await openEmbeddedStore({ directory: dir, fsync: false });
  });
  afterAll(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const service = (tenantId: TenantId, wakes: { count: number } = { count: 0 }) => {
    const viewer: Viewer = { tenantId, subject: null, roles: [], isAdmin: true, token: 'unused' };
    return new SlotConfigService({
      store: new SlotConfigStore(store.forTenant(tenantId)),
      viewer,
      timeZone: 'Europe/Rome',
      now: () => clock,
      onEventsWritten: () => wakes.count++,
    });
  };

  /** The capacity.config.updated events waiting in the tenant's config record, oldest first. */
  const pendingEvents = async (tenantId: TenantId) => {
    const pending = await store.outbox([SLOT_CONFIG_COLLECTION]).claimPending(100, 1);
    return pending
      .filter((p) => p.tenantId === tenantId)
      .flatMap((p) => p.messages)
      .map((m) => ({ subject: m.subject, body: m.body as { type: string; data: Record<string, unknown> } }));
  };

  it('has one reminder 24 hours before until rules are sent, then keeps them while other fields change', async () => {
    const tenantId = newTenantId();
    const config = service(tenantId);
    expect(await config.get()).toMatchObject({ reminders: [{ hoursBefore: 24 }], remindersUpdatedAt: null });
    clock = new Date('2027-01-01T10:00:00Z');
    const saved = await config.update({ promemoria: [{ orePrima: 2 }, { orePrima: 48 }] });
    expect(saved).toMatchObject({
      reminders: [{ hoursBefore: 48 }, { hoursBefore: 2 }],
      remindersUpdatedAt: '2027-01-01T10:00:00.000Z',
    });
    clock = new Date('2027-01-01T11:00:00Z');
    expect(await config.update({ slotMinutes: 30 })).toMatchObject({
      reminders: [{ hoursBefore: 48 }, { hoursBefore: 2 }],
      remindersUpdatedAt: '2027-01-01T10:00:00.000Z',
      updatedAt: '2027-01-01T11:00:00.000Z',
    });
    // The same rules again (in another order) are no change: reminders due before now stay planned.
    expect(await config.update({ reminders: [{ hoursBefore: 2 }, { hoursBefore: 48 }] })).toMatchObject({
      remindersUpdatedAt: '2027-01-01T10:00:00.000Z',
    });
    clock = new Date('2027-01-01T12:00:00Z');
    expect(await config.update({ reminders: [] })).toMatchObject({
      reminders: [],
      remindersUpdatedAt: '2027-01-01T12:00:00.000Z',
    });
    expect((await config.get()).reminders).toEqual([]);
    // A clock behind the last change (another instance's): the change still comes after it.
    clock = new Date('2027-01-01T08:00:00Z');
    expect((await config.update({ reminders: [{ hoursBefore: 5 }] })).remindersUpdatedAt).toBe(
      '2027-01-01T12:00:00.001Z',
    );
  });

  it('stores the capacity.config.updated event with each change, carrying the rules under both names', async () => {
    const tenantId = newTenantId();
    const wakes = { count: 0 };
    const config = service(tenantId, wakes);
    clock = new Date('2027-02-01T09:00:00Z');
    await config.update({ reminders: [{ hoursBefore: 3 }] });
    clock = new Date('2027-02-01T09:30:00Z');
    await config.update({ maxCoversPerSlot: 20 });
    expect(wakes.count).toBe(2);
    const events = await pendingEvents(tenantId);
    expect(events.map((e) => e.subject)).toEqual([
      `tenant.${tenantId}.restaurant.capacity.config.updated`,
      `tenant.${tenantId}.restaurant.capacity.config.updated`,
    ]);
    expect(events.map((e) => e.body.type)).toEqual(['capacity.config.updated', 'capacity.config.updated']);
    expect(events[1]!.body.data).toMatchObject({
      maxCoversPerSlot: 20,
      promemoria: [{ orePrima: 3, hoursBefore: 3 }],
      reminders: [{ orePrima: 3, hoursBefore: 3 }],
      remindersUpdatedAt: '2027-02-01T09:00:00.000Z',
      updatedAt: '2027-02-01T09:30:00.000Z',
      customized: true,
    });
    expect((events[1]!.body.data['openingHours'] as unknown[]).length).toBe(7);
  });

  it('refuses bad rules with nothing stored', async () => {
    const tenantId = newTenantId();
    const config = service(tenantId);
    await expect(config.update({ reminders: [{ hoursBefore: 721 }] })).rejects.toMatchObject({
      code: 'VALIDATION_FAILED',
    });
    expect(await config.get()).toMatchObject({ customized: false, reminders: [{ hoursBefore: 24 }] });
    expect(await pendingEvents(tenantId)).toEqual([]);
  });
});
