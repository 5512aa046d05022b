import { randomUUID } from 'node:crypto';
import { NotFoundError } from '@coperto/errors';
import { InputChecks, preferEnglish } from '@coperto/domain';
import {
  bookingMoment,
  checkPlacement,
  checkTableIds,
  MAX_DURATION_MINUTES,
} from '../bookings/prenotazione-input.js';
import type { OpzioneInput } from '../generated/resolvers-types.js';
import type { SeatPlacement } from '../seating/seat-placement.js';
import type { Reseater } from '../seating/reseater.js';
import { stayMinutes, type SeatingSources } from '../seating/seating-sources.js';
import type { TableClaims } from '../seating/table-claims.js';
import { mayHaveBeenApplied } from '../seating/write-outcome.js';
import { DEFAULT_OPTION_TTL_SECONDS, OPTION_TTL_RANGE, type OpzioneRecord } from './opzione-record.js';
import type { OpzioneStore } from './opzione-store.js';
import { OPTION_CLAIM_REV, releaseOptionHolds } from './option-holds.js';

export interface OpzioneServiceDeps {
  store: OpzioneStore;
  /** The placement rule and the agendas bookings use: options hold tables the same way. */
  placement: SeatPlacement;
  /** autoAssign re-seats as a booking does, so a time the availability search offers can be held. */
  reseater: Pick<Reseater, 'whenEnabled'>;
  claims: TableClaims;
  seating: SeatingSources;
  timeZone: string;
  now: () => Date;
}

/**
 * Options: tables held for a window while a guest completes a booking (docs/seating.md "Options"). An option
 * holds its tables in the agendas like a booking until expiresAt; the verdict on its holds (holds.ts) makes
 * them stale by the clock alone once it expires, is released or becomes a booking.
 */
export class OpzioneService {
  constructor(private readonly deps: OpzioneServiceDeps) {}

  async create(input: OpzioneInput): Promise<OpzioneRecord> {
    const covers = preferEnglish(input.covers, input.numeroPersone);
    const bookingDate = preferEnglish(input.bookingDate, input.dataOra);
    const checks = new InputChecks()
      .required('covers', covers)
      .required('bookingDate', bookingDate)
      .intInRange('covers', covers, 1, 1000)
      .intInRange('ttl', input.ttl, ...OPTION_TTL_RANGE)
      .intInRange('durationMinutes', input.durationMinutes, 1, MAX_DURATION_MINUTES);
    checkPlacement(checks, input);
    if (input.tableIds == null && input.combinationId == null && input.autoAssign !== true) {
      checks.add('tableIds', 'one of tableIds, combinationId and autoAssign is required');
    }
    if (input.tableIds) {
      if (input.tableIds.length === 0) checks.add('tableIds', 'must not be empty');
      checkTableIds(checks, input.tableIds);
    }
    const moment = bookingDate == null ? null : bookingMoment(bookingDate, this.deps.timeZone);
    if (bookingDate != null && !moment) checks.add('bookingDate', 'must be an ISO 8601 date-time');
    checks.throwIfAny();
    const minutes = await stayMinutes(this.deps.seating, input.durationMinutes, covers!);
    const now = this.deps.now();
    const startsAt = moment!.startsAt;
    const endsAt = new Date(Date.parse(startsAt) + minutes * 60_000).toISOString();
    const id = randomUUID();
    const placed = await this.deps.placement.place(
      {
        id,
        rev: OPTION_CLAIM_REV,
        start: startsAt,
        end: endsAt,
        owner: 'opzione',
        covers: covers!,
        localDate: moment!.localDate,
      },
      input,
      { claim: true, reseat: input.autoAssign ? await this.deps.reseater.whenEnabled() : undefined },
    );
    const record: OpzioneRecord = {
      id,
      tableIds: placed.tableIds,
      combinationId: placed.combinationId,
      bookingDate: moment!.local,
      dataOra: moment!.local,
      localDate: moment!.localDate,
      startsAt,
      endsAt,
      covers: covers!,
      numeroPersone: covers!,
      durationMinutes: input.durationMinutes ?? null,
      expiresAt: new Date(now.getTime() + (input.ttl ?? DEFAULT_OPTION_TTL_SECONDS) * 1000).toISOString(),
      assegnazione: placed.assegnazione,
      claimId: placed.claimId!,
      usedAt: null,
      releasedAt: null,
      createdAt: now.toISOString(),
    };
    try {
      return await this.deps.store.insert(record);
    } catch (error) {
      // An insert whose outcome is unknown keeps its holds (see mayHaveBeenApplied).
      if (!mayHaveBeenApplied(error)) await releaseOptionHolds(this.deps.claims, record);
      throw error;
    }
  }

  /** The tenant's live options, soonest expiry first. */
  list(): Promise<OpzioneRecord[]> {
    return this.deps.store.live(this.deps.now().toISOString());
  }

  /** Frees an option's tables at once; `released` is false when it had expired, been used or released. */
  async release(id: string): Promise<{ id: string; released: boolean }> {
    new InputChecks().text('id', id, { min: 1, max: 200 }).throwIfAny();
    const found = await this.deps.store.findById(id);
    if (!found) throw new NotFoundError('Opzione', id);
    const closed = await this.deps.store.close(id, this.deps.now().toISOString(), 'releasedAt');
    if (closed) await releaseOptionHolds(this.deps.claims, closed);
    return { id, released: closed !== null };
  }
}
