import type { PrenotazioneRecord } from '../bookings/prenotazione-record.js';
import { endsAt } from './holds.js';
import type { PlacementOwner } from './seat-placement.js';
import type { ClaimOwner } from './table-claims.js';

/** What a booking claims: its tables for its stay, at its claim revision. */
export function bookingClaim(record: PrenotazioneRecord): ClaimOwner {
  return {
    id: record.id,
    rev: record.claimRev,
    tableIds: record.tableIds,
    start: record.startsAt,
    end: endsAt(record),
  };
}

/** A booking about to be placed: its stay and party, its tables still to choose. */
export function bookingPlacement(record: PrenotazioneRecord): PlacementOwner {
  return {
    id: record.id,
    rev: record.claimRev,
    start: record.startsAt,
    end: endsAt(record),
    covers: record.covers,
    localDate: record.localDate,
  };
}
