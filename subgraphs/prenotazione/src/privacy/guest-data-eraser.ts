import { PRIVACY_ROLE, requireAdmin, type Viewer } from '@coperto/auth';
import { InputChecks } from '@coperto/domain';
import type { PrenotazioneStore } from '../bookings/prenotazione-store.js';
import type { BookingEvent, WaitlistEvent } from '../events.js';
import type { WaitlistStore } from '../waitlist/waitlist-store.js';

/** The name an erased guest's bookings and waitlist entries carry (a booking's name is required). */
export const ERASED_NAME = 'Ospite cancellato';

/** Ids per call: a guest's bookings and entries, with room to spare. */
export const MAX_ERASED_IDS = 5000;

const MAX_CAS_ATTEMPTS = 8;

export interface GuestDataEraserDeps {
  viewer: Viewer;
  bookings: PrenotazioneStore;
  waitlist: WaitlistStore;
  event: BookingEvent;
  waitlistEvent: WaitlistEvent;
  now: () => Date;
  onEventsWritten: () => void;
}

/** The guest's data a booking or a waitlist entry holds. */
interface Personal {
  customerName: string;
  cliente: string;
  customerPhone: string | null;
  notes: string | null;
  customerEmail?: string | null;
}

/** The record with the guest's name, phone, email and notes replaced; null when it already is. */
export function withoutGuestData<T extends Personal>(record: T): T | null {
  const erased =
    record.customerName === ERASED_NAME &&
    record.cliente === ERASED_NAME &&
    record.customerPhone === null &&
    record.notes === null &&
    (record.customerEmail ?? null) === null;
  if (erased) return null;
  return {
    ...record,
    customerName: ERASED_NAME,
    cliente: ERASED_NAME,
    customerPhone: null,
    notes: null,
    ...('customerEmail' in record ? { customerEmail: null } : {}),
  };
}

/**
 * The erasure of a guest's data from its bookings and waitlist entries (asked by the ospiti subgraph's oblio):
 * each changed booking publishes bookings.updated and each changed waitlist entry waitlist.erased, with the erased
 * record, so the sync and the events from then on carry no personal data, and a screen or an app that keeps the
 * records from their events replaces its copy.
 */
export class GuestDataEraser {
  constructor(private readonly deps: GuestDataEraserDeps) {}

  async erase(
    prenotazioneIds: readonly string[],
    vociAttesaIds: readonly string[],
  ): Promise<{ prenotazioni: number; vociAttesa: number }> {
    // An administrator's oblio, or ospiti itself (its retention, a record of an erased guest that came late).
    if (this.deps.viewer.grant?.role !== PRIVACY_ROLE) requireAdmin(this.deps.viewer, "erase a guest's data");
    const checks = new InputChecks();
    if (prenotazioneIds.length > MAX_ERASED_IDS) checks.add('prenotazioneIds', `at most ${MAX_ERASED_IDS}`);
    if (vociAttesaIds.length > MAX_ERASED_IDS) checks.add('vociAttesaIds', `at most ${MAX_ERASED_IDS}`);
    checks.throwIfAny();
    let prenotazioni = 0;
    for (const id of new Set(prenotazioneIds)) if (await this.eraseBooking(id)) prenotazioni++;
    let vociAttesa = 0;
    for (const id of new Set(vociAttesaIds)) if (await this.eraseEntry(id)) vociAttesa++;
    if (prenotazioni + vociAttesa > 0) this.deps.onEventsWritten();
    return { prenotazioni, vociAttesa };
  }

  private async eraseBooking(id: string): Promise<boolean> {
    for (let attempt = 0; attempt < MAX_CAS_ATTEMPTS; attempt++) {
      const current = await this.deps.bookings.findById(id);
      const erased = current && withoutGuestData(current);
      if (!current || !erased) return false;
      const next = { ...erased, version: current.version + 1, updatedAt: this.deps.now().toISOString() };
      if (
        await this.deps.bookings.replace(current.version, next, [this.deps.event('bookings.updated', next)])
      )
        return true;
    }
    throw new Error(`Prenotazione ${id} kept changing during the erasure`);
  }

  private async eraseEntry(id: string): Promise<boolean> {
    for (let attempt = 0; attempt < MAX_CAS_ATTEMPTS; attempt++) {
      const current = await this.deps.waitlist.findById(id);
      const erased = current && withoutGuestData(current);
      if (!current || !erased) return false;
      const next = { ...erased, version: current.version + 1, updatedAt: this.deps.now().toISOString() };
      // No place in the queue: the event says what was erased, a screen reads the queue again (GET /api/attesa).
      if (
        await this.deps.waitlist.replace(current.version, next, [
          this.deps.waitlistEvent('waitlist.erased', next, null),
        ])
      )
        return true;
    }
    throw new Error(`VoceAttesa ${id} kept changing during the erasure`);
  }
}
