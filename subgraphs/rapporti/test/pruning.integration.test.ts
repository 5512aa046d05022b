// The daily pruning of rapporti's booking facts on the real store (MongoDB protocol), as a rapporti process runs
// it: the consumer starts each tenant's chain, a run deletes the facts of bookings that started longer ago than
// BOOKING_FACTS_DAYS (never one still to come, never another tenant's) and schedules the next day's.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { trustedTenantId } from '@coperto/auth';
import { buildEvent } from '@coperto/bus';
import { connectMongoStore, type DocumentStore } from '@coperto/store';
import { newTenantId, serverUrls, uniqueName } from '@coperto/testkit';
import { BOOKING_FACTS_DAYS, bookingFactsCutoff, PruningScheduler, pruningJob } from '../src/pruning.js';
import { RapportiStore } from '../src/rapporti-store.js';
import { MAX_REPORT_DAYS } from '../src/services.js';
import { tableEventConsumer } from '../src/table-events.js';

const DAY = 24 * 60 * 60 * 1000;

describe('rapporti: pruning the booking facts (MongoDB)', () => {
  let store: DocumentStore;
  const database = uniqueName('rapporti_pruning');

  beforeAll(async () => {
    store = await connectMongoStore({ url: serverUrls().mongoUrl, database });
  });
  afterAll(async () => {
    await store?.close();
  });

  /** A booking event of the tenant starting at `startsAt`. */
  const booking = (tenant: string, id: string, startsAt: Date) =>
    buildEvent({
      tenantId: trustedTenantId(tenant),
      type: 'bookings.updated',
      source: 'coperto/prenotazione',
      subject: id,
      data: {
        id,
        covers: 2,
        startsAt: startsAt.toISOString(),
        tableIds: ['t1'],
        state: 'completata',
        durationMinutes: null,
        externalId: null,
        origine: 'staff',
        updatedAt: startsAt.toISOString(),
      },
    });

  it('keeps two of the longest report ranges', () => {
    expect(BOOKING_FACTS_DAYS).toBe(2 * MAX_REPORT_DAYS);
    const now = new Date('2027-06-15T12:00:00Z');
    expect(bookingFactsCutoff(now).toISOString()).toBe('2025-06-13T12:00:00.000Z');
    expect(pruningJob(now)).toEqual({ key: 'potatura/2027-06-15', dueAt: new Date('2027-06-15T00:00:00Z') });
  });

  it('deletes what started before the cutoff, keeps the rest and other tenants’, runs daily', async () => {
    let clock = new Date('2027-06-15T12:00:00Z');
    const now = () => clock;
    const pruning = new PruningScheduler({ store, now });
    await pruning.init();
    const consumer = tableEventConsumer({ store, now, pruning });
    const [tenant, other] = [newTenantId(), newTenantId()];
    const facts = (t: string) => new RapportiStore(store.forTenant(trustedTenantId(t)));
    const ids = async (t: string) =>
      (await facts(t).bookingsBetween(new Date(0), new Date('2100-01-01T00:00:00Z'))).map((b) => b.id).sort();
    const ago = (days: number) => new Date(clock.getTime() - days * DAY);
    const deliver = async (t: string, id: string, startsAt: Date) => {
      const { message, event } = booking(t, id, startsAt);
      await consumer.handle(event, message.subject);
    };

    // Older than the cutoff already: not kept (a late event of a booking long gone).
    await deliver(tenant, 'too-old', ago(BOOKING_FACTS_DAYS + 1));
    await deliver(tenant, 'ages-tomorrow', ago(BOOKING_FACTS_DAYS - 0.5));
    await deliver(tenant, 'last-year', ago(MAX_REPORT_DAYS + 10));
    await deliver(tenant, 'to-come', new Date(clock.getTime() + 30 * DAY));
    expect(await ids(tenant)).toEqual(['ages-tomorrow', 'last-year', 'to-come']);
    // Another tenant's facts, kept before they aged (its chain not started by this process).
    await facts(other).putBooking({
      id: 'theirs',
      startsAt: ago(BOOKING_FACTS_DAYS + 5).toISOString(),
      covers: 4,
      tableIds: [],
      state: 'completata',
      durationMinutes: null,
      walkIn: false,
      aggiornatoAt: ago(BOOKING_FACTS_DAYS + 5).toISOString(),
    });

    // Today's run (due since midnight): nothing has aged yet.
    expect(await pruning.scheduler.poll()).toMatchObject({ claimed: 1, skipped: 1 });
    const scheduled = await pruning.scheduler.list(trustedTenantId(tenant), 'potatura/');
    expect(scheduled.map((j) => [j.key, j.dueAt])).toEqual(
      expect.arrayContaining([['potatura/2027-06-16', '2027-06-16T00:00:00.000Z']]),
    );
    expect(await pruning.scheduler.poll()).toMatchObject({ claimed: 0 });
    // More events the same day start nothing new.
    await deliver(tenant, 'last-year', ago(MAX_REPORT_DAYS + 10));
    expect(await pruning.scheduler.poll()).toMatchObject({ claimed: 0 });

    // The next day: the booking that aged is deleted; the others, and the other tenant's, stay.
    clock = new Date(clock.getTime() + DAY);
    expect(await pruning.scheduler.poll()).toMatchObject({ claimed: 1, done: 1 });
    expect(await ids(tenant)).toEqual(['last-year', 'to-come']);
    expect(await ids(other)).toEqual(['theirs']);
    expect((await pruning.scheduler.list(trustedTenantId(tenant), 'potatura/')).map((j) => j.key)).toContain(
      'potatura/2027-06-17',
    );
    expect(await pruning.scheduler.list(trustedTenantId(other), 'potatura/')).toEqual([]);
  });
});
