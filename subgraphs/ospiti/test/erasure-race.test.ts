import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { trustedTenantId } from '@coperto/auth';
import { eraseGuest, eraseRecords, type ErasureDeps } from '../src/erasure.js';
import { factsOf, type RecordFacts } from '../src/event-facts.js';
import { privacyAuthorization } from '../src/guest-events.js';
import { currentGuest } from '../src/guest-writes.js';
import { GuestLinker } from '../src/linker.js';
import { linkId } from '../src/ospite-record.js';
import { OspitiStore } from '../src/ospiti-store.js';
import { drive } from './support/drive.js';
import { hostOspiti, newTenant, serviceTokens, type Hosted } from './support/hosted.js';

/**
 * A waitlist entry (or booking) linked while its guest is being erased: the erasure and the linker interleaved
 * deterministically at the two points where they race. Found by the generated erasure suite
 * (test/properties/erasure.e2e.test.ts, FC_SEED=1967896566 FC_PATH=0:9:15:1:5:4): the entry kept its name, phone
 * and notes.
 */
describe('ospiti: a record linked during its guest’s erasure loses its data (in-process)', () => {
  let h: Hosted;
  beforeAll(async () => {
    h = await hostOspiti();
    await h.stopConsumers();
  });
  afterAll(async () => {
    await h?.close();
  });
  const { book } = drive(() => h);
  const PHONE = '+39 347 000 0023';

  /** The first event published on the subject after `act` (the in-process bus hands it to subscribers). */
  async function eventOf(subject: string, act: () => Promise<string>) {
    const feed = h.bus.subscribe(subject);
    const id = await act();
    for await (const event of feed) if (event.subject === id) return { id, facts: factsOf(event)! };
    throw new Error(`no event on ${subject}`);
  }

  /**
   * A tenant whose guest has a past booking, and a waitlist entry of that guest's phone not yet linked. ospiti's
   * consumer is stopped: the linker runs only where a test calls it.
   */
  async function guestAndUnlinkedEntry() {
    const t = await newTenant();
    const store = new OspitiStore(h.store.forTenant(trustedTenantId(t.tenantId)));
    const authorization = privacyAuthorization(serviceTokens, t.tenantId);
    const deps: ErasureDeps = { store, subgraphs: h.hosted.client, now: () => new Date(), authorization };
    const eraseLate = (late: RecordFacts) =>
      late.tipo === 'prenotazione'
        ? eraseRecords({ subgraphs: h.hosted.client, authorization }, [late.id], [])
        : eraseRecords({ subgraphs: h.hosted.client, authorization }, [], [late.id]);
    const past = await eventOf(`tenant.${t.tenantId}.restaurant.bookings.created`, () =>
      book(t.staff, {
        customerName: 'Piero Ratti',
        customerPhone: PHONE,
        bookingDate: '2026-01-10T20:00:00',
      }),
    );
    await new GuestLinker(store, () => new Date(), eraseLate).apply(past.facts);
    const guest = (await currentGuest(store, (await store.link(linkId('prenotazione', past.id)))!.ospiteId))!;
    const entry = await eventOf(`tenant.${t.tenantId}.restaurant.waitlist.updated`, async () => {
      const { aggiungiAttesa } = await h.run<{ aggiungiAttesa: { id: string } }>(
        'prenotazione',
        'mutation($i: VoceAttesaInput!) { aggiungiAttesa(input: $i) { id } }',
        { i: { customerName: 'Piero Ratti', covers: 2, customerPhone: PHONE, notes: 'sedia alta' } },
        t.staff,
      );
      return aggiungiAttesa.id;
    });
    return { t, entryId: entry.id, facts: entry.facts, store, deps, eraseLate, guest };
  }

  const entry = async (token: string, id: string) =>
    (
      await h.run<{ voceAttesa: Record<string, unknown> }>(
        'prenotazione',
        'query($id: ID!) { voceAttesa(id: $id) { customerName customerPhone notes } }',
        { id },
        token,
      )
    ).voceAttesa;

  const ERASED = { customerName: 'Ospite cancellato', customerPhone: null, notes: null };

  it('the erasure erases a record linked between its read of the links and its mark', async () => {
    const { t, entryId, facts, store, deps, eraseLate, guest } = await guestAndUnlinkedEntry();
    const linker = new GuestLinker(store, () => new Date(), eraseLate);
    let reads = 0;
    // The erasure's first read of the guest's links, then the linker, complete, before the erasure goes on.
    const erasing = Object.create(store) as OspitiStore;
    erasing.linksOf = async (ospiteId: string) => {
      const links = await store.linksOf(ospiteId);
      if (reads++ === 0) await linker.apply(facts);
      return links;
    };
    await eraseGuest({ ...deps, store: erasing }, guest);
    expect(reads).toBeGreaterThan(0);
    // The interleaving happened: the entry was linked to the guest while it was being erased.
    expect((await store.link(linkId('attesa', entryId)))?.ospiteId).toBe(guest.id);
    expect(await entry(t.staff, entryId)).toEqual(ERASED);
  });

  it('the linker erases a record it links to a guest whose erasure ran after the linker read the guest', async () => {
    const { t, entryId, facts, store, deps, eraseLate, guest } = await guestAndUnlinkedEntry();
    // The linker has read the guest (not erased); the whole erasure runs before its link is written.
    const linking = Object.create(store) as OspitiStore;
    let erased = false;
    linking.insertLink = async (link) => {
      await eraseGuest(deps, guest);
      erased = true;
      return store.insertLink(link);
    };
    await new GuestLinker(linking, () => new Date(), eraseLate).apply(facts);
    expect(erased).toBe(true);
    expect((await currentGuest(store, guest.id))?.cancellato).toBe(true);
    expect(await entry(t.staff, entryId)).toEqual(ERASED);
  });
});
