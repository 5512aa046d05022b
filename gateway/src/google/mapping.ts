import { parseRestaurantDateTime, zoneOffsetMinutes } from '@coperto/domain';
import type { ErrorCode } from '@coperto/errors';
import {
  GOOGLE_SERVICE_ID,
  type Booking,
  type BookingFailure,
  type BookingStatus,
  type CreateBookingRequest,
  type Int64,
  type SlotTime,
  type UpdateBookingRequest,
  type UserInformation,
} from './wire.js';
import type {
  GoogleBookingFragment,
  GoogleDisponibilitaQuery,
  PrenotazioneInput,
  PrenotazionePatch,
} from './generated/operation-types.js';

/** A booking as the booking server reads it (operations.ts's `GoogleBooking` fragment). */
export type CopertoBooking = GoogleBookingFragment;

/** One party size's day as the search answers it (`disponibilitaPerCoperti`): its places and offered times. */
export type PartyDay = GoogleDisponibilitaQuery['disponibilitaPerCoperti'][number];

/** An offered start: the longest stay it allows (minutes) and how many places are free then. */
export interface OfferedStart {
  minutes: number;
  spotsOpen: number;
}

/** A party's day by offered start (seconds since the epoch), with its places. */
export interface PartyOffer {
  spotsTotal: number;
  starts: ReadonlyMap<number, OfferedStart>;
}

export const seconds = (value: Int64): number => Number(value);

/** The restaurant's wall clock at `startSec`: its local date and the local date-time the API takes. */
export function wallClockOf(startSec: number, zone: string): { date: string; dataOra: string } {
  const ms = startSec * 1000;
  const local = new Date(ms + zoneOffsetMinutes(ms, zone) * 60_000).toISOString();
  return { date: local.slice(0, 10), dataOra: local.slice(0, 19) };
}

/**
 * The search a slot needs: its local date and its party size. A lookup's slots repeat each start for every party
 * size, so each start's local date is computed once per `searches` made.
 */
export function slotSearches(
  zone: string,
): (slot: Pick<SlotTime, 'start_sec' | 'resource_ids'>) => { date: string; covers: number } {
  const dates = new Map<number, string>();
  return (slot) => {
    const start = seconds(slot.start_sec);
    let date = dates.get(start);
    if (date === undefined) {
      date = wallClockOf(start, zone).date;
      dates.set(start, date);
    }
    return { date, covers: slot.resource_ids?.party_size ?? 0 };
  };
}

/**
 * A party's day by offered start (seconds since the epoch), with the stay each allows and its free places; the local
 * date-times of a day repeat for every party, so `instants` reads each once.
 */
export function offeredByStart(
  day: Pick<PartyDay, 'spotsTotal' | 'times'>,
  instants: (bookingDate: string) => number | null,
): PartyOffer {
  const starts = new Map<number, OfferedStart>();
  for (const time of day.times) {
    const instant = instants(time.bookingDate);
    if (instant !== null) starts.set(instant, { minutes: time.durationMinutes, spotsOpen: time.spotsOpen });
  }
  return { spotsTotal: day.spotsTotal, starts };
}

/** The instant (seconds since the epoch) of a local date-time of the restaurant, each one parsed once. */
export function restaurantInstants(zone: string): (bookingDate: string) => number | null {
  const known = new Map<string, number | null>();
  return (bookingDate) => {
    let instant = known.get(bookingDate);
    if (instant === undefined) {
      const parsed = parseRestaurantDateTime(bookingDate, zone);
      instant = parsed ? parsed.getTime() / 1000 : null;
      known.set(bookingDate, instant);
    }
    return instant;
  };
}

/**
 * A slot is available when it is Coperto's one service, the search offers a time starting then, and (when the slot
 * names a duration) that time allows a stay at least that long.
 */
export function isAvailable(slot: SlotTime, offered: PartyOffer): boolean {
  if (slot.service_id !== GOOGLE_SERVICE_ID) return false;
  const start = offered.starts.get(seconds(slot.start_sec));
  if (start === undefined) return false;
  return slot.duration_sec === undefined || start.minutes * 60 >= seconds(slot.duration_sec);
}

/** The guest's name from Google's user information; Google when it gives none. */
export function guestName(user: UserInformation): string {
  const name = [user.given_name, user.family_name]
    .map((part) => part?.trim())
    .filter(Boolean)
    .join(' ');
  return name || 'Google';
}

/** `createPrenotazione`'s input for a CreateBooking: the autoAssign rule, as a channel books. */
export function bookingInput(request: CreateBookingRequest, zone: string): PrenotazioneInput {
  const { slot, user_information: user } = request;
  const input: PrenotazioneInput = {
    autoAssign: true,
    bookingDate: wallClockOf(seconds(slot.start_sec), zone).dataOra,
    covers: slot.resources?.party_size,
    customerName: guestName(user),
    customerPhone: user.telephone?.trim() || null,
  };
  if (slot.duration_sec !== undefined) input.durationMinutes = Math.ceil(seconds(slot.duration_sec) / 60);
  if (request.additional_request?.trim()) input.notes = request.additional_request.trim();
  return input;
}

/**
 * What UpdateBooking asks: cancel, or move (time, party); null when it asks nothing Coperto changes. A move is a
 * guest's change (docs/channels.md): placed again by the autoAssign rule for the party's turn time, so a new
 * `duration_sec` is not taken.
 */
export type UpdateIntent = { kind: 'cancel' } | { kind: 'move'; patch: PrenotazionePatch } | null;

export function updateIntent(request: UpdateBookingRequest, zone: string): UpdateIntent {
  const { booking } = request;
  const mask = request.update_mask?.split(',').map((path) => path.trim());
  const asked = (path: string, present: boolean) => (mask ? mask.includes(path) : present);
  if (asked('status', booking.status !== undefined) && booking.status === 'CANCELED')
    return { kind: 'cancel' };
  const slot = booking.slot ?? {};
  const patch: PrenotazionePatch = {};
  if (asked('start_sec', slot.start_sec !== undefined) && slot.start_sec !== undefined) {
    patch.bookingDate = wallClockOf(seconds(slot.start_sec), zone).dataOra;
  }
  const party = slot.resources?.party_size;
  if (asked('party_size', party !== undefined) && party !== undefined) patch.covers = party;
  return Object.keys(patch).length > 0 ? { kind: 'move', patch } : null;
}

/**
 * Google's booking id: Coperto's booking id and the merchant's id, so that GetBookingStatus and UpdateBooking (which
 * name only the booking) find the restaurant. Booking ids never hold `:`; merchant ids may.
 */
export function googleBookingId(merchantId: string, bookingId: string): string {
  return `${bookingId}:${merchantId}`;
}

export function parseGoogleBookingId(value: string): { merchantId: string; bookingId: string } | null {
  const at = value.indexOf(':');
  if (at <= 0 || at === value.length - 1) return null;
  return { bookingId: value.slice(0, at), merchantId: value.slice(at + 1) };
}

/** A booking's state as Google knows it: a held table is CONFIRMED whatever the restaurant's own flow says. */
export function googleStatusOf(state: string): BookingStatus {
  switch (state) {
    case 'annullata':
      return 'CANCELED';
    case 'no_show':
      return 'NO_SHOW';
    case 'pending':
    case 'confermata':
    case 'caparra_pagata':
    case 'completata':
      return 'CONFIRMED';
    default:
      return 'BOOKING_STATUS_UNSPECIFIED';
  }
}

export function toGoogleBooking(
  booking: CopertoBooking,
  merchantId: string,
  user: UserInformation | undefined,
): Booking {
  return {
    booking_id: googleBookingId(merchantId, booking.id),
    slot: {
      merchant_id: merchantId,
      service_id: GOOGLE_SERVICE_ID,
      start_sec: String(Date.parse(booking.startsAt) / 1000),
      duration_sec: String(booking.effectiveDurationMinutes * 60),
      resources: { party_size: booking.covers },
    },
    ...(user ? { user_information: user } : {}),
    status: googleStatusOf(booking.state),
    payment_information: { prepayment_status: 'PREPAYMENT_NOT_PROVIDED' },
  };
}

/**
 * Coperto's refusal of a booking or a change as Google's BookingFailure, or null when it is not a business failure
 * (a bad request, an outage: those are HTTP errors, and Google retries). `cancelling`: the refusal answered a cancel.
 */
export function bookingFailureOf(code: ErrorCode, cancelling: boolean): BookingFailure | null {
  switch (code) {
    case 'NO_TABLE_AVAILABLE':
    case 'TABLE_UNAVAILABLE':
    case 'OPTION_EXPIRED':
    case 'LOCK_CONFLICT':
      return { cause: 'SLOT_UNAVAILABLE', description: 'No table is free for the party at that time' };
    case 'INVALID_TRANSITION':
      return cancelling
        ? { cause: 'BOOKING_NOT_CANCELLABLE', description: 'The booking can no longer be cancelled' }
        : { cause: 'CAUSE_UNSPECIFIED', description: 'The booking can no longer be changed' };
    default:
      return null;
  }
}

/** The booking_failure for a booking Google asks to change or cancel after it was cancelled. */
export const ALREADY_CANCELLED: BookingFailure = {
  cause: 'BOOKING_ALREADY_CANCELLED',
  description: 'The booking was cancelled',
};
