import type { ChannelRef, Origine } from './service-token-rights.js';
import { createHash, randomInt } from 'node:crypto';
import { ACTIVE_BOOKING_STATES, isActiveBookingState } from '@coperto/domain';
import type { Assegnazione, BookingState, Lingua } from '../generated/resolvers-types.js';

/** Booking states: schema.graphql's enum BookingState, the one declaration (generated into TypeScript). */
export type { BookingState } from '../generated/resolvers-types.js';

/** States in which a booking holds its tables (declared once, in @coperto/domain). */
export const ACTIVE_STATES: readonly BookingState[] = ACTIVE_BOOKING_STATES;

export function isActive(state: BookingState): boolean {
  return isActiveBookingState(state);
}

/**
 * The transition table of booking states; completata, annullata and no_show are final. Keyed by every state
 * of the schema's enum (a state added to schema.graphql fails `pnpm typecheck` until it has its row here).
 */
export const TRANSITIONS: Readonly<Record<BookingState, readonly BookingState[]>> = {
  pending: ['confermata', 'caparra_pagata', 'annullata'],
  confermata: ['caparra_pagata', 'completata', 'annullata', 'no_show'],
  caparra_pagata: ['completata', 'annullata', 'no_show'],
  completata: [],
  annullata: [],
  no_show: [],
};

/** Every booking state, in the schema's order. */
export const BOOKING_STATES = Object.keys(TRANSITIONS) as readonly BookingState[];

/** 'same' (no-op, no event), 'allowed', or 'refused' (409 INVALID_TRANSITION). */
export function transition(from: BookingState, to: BookingState): 'same' | 'allowed' | 'refused' {
  if (from === to) return 'same';
  return TRANSITIONS[from].includes(to) ? 'allowed' : 'refused';
}

/** A booking as stored in `prenotazioni`: both name forms of each aliased attribute are stored. */
export interface PrenotazioneRecord {
  id: string;
  codice: string;
  covers: number;
  numeroPersone: number;
  /** Restaurant-local wall clock, `YYYY-MM-DDTHH:mm:ss`. */
  bookingDate: string;
  dataOra: string;
  /** UTC instant of the start. */
  startsAt: string;
  /** Local calendar date of the start (`YYYY-MM-DD`), for day queries and dal/al. */
  localDate: string;
  customerName: string;
  cliente: string;
  customerPhone: string | null;
  /** Absent on records stored before it existed. */
  customerEmail?: string | null;
  /** The language the guest is written to in (absent on older records: DEFAULT_LINGUA). */
  lingua?: Lingua;
  tableIds: string[];
  /** The combination the tables came from (absent on records stored before combinations existed). */
  combinationId?: string | null;
  /** How the tables were chosen (absent on older records: manual). */
  assegnazione?: Assegnazione;
  notes: string | null;
  state: BookingState;
  durationMinutes: number | null;
  /** Where it came from (absent on records stored before: `pos` with an externalId, else `staff`). */
  origine?: Origine;
  /** The booking channel it was made through (origine `online`). */
  canale?: ChannelRef | null;
  /**
   * Minutes the booking holds its tables: its own durationMinutes, else the tenant's default meal duration,
   * fixed when created or moved. Absent on records stored before it existed (see holds.ts effectiveMinutes).
   */
  effectiveDurationMinutes?: number;
  motivo: string | null;
  cancelledAt: string | null;
  externalId: string | null;
  createdAt: string;
  updatedAt: string;
  version: number;
  /** Version of the table claims that belong to this booking (see table-agenda-store.ts). */
  claimRev: number;
}

/** The fields a new booking is made of; the rest follow from them (see newBookingRecord). */
export type NewBookingFields = Pick<
  PrenotazioneRecord,
  | 'id'
  | 'covers'
  | 'bookingDate'
  | 'startsAt'
  | 'localDate'
  | 'customerName'
  | 'customerPhone'
  | 'customerEmail'
  | 'lingua'
  | 'tableIds'
  | 'combinationId'
  | 'assegnazione'
  | 'notes'
  | 'state'
  | 'durationMinutes'
  | 'effectiveDurationMinutes'
  | 'externalId'
>;

/** A new booking (version 1, claim revision 1) with both name forms; its codice is drawn when it is stored. */
export function newBookingRecord(fields: NewBookingFields, now: string): PrenotazioneRecord {
  return {
    id: fields.id,
    codice: '',
    covers: fields.covers,
    numeroPersone: fields.covers,
    bookingDate: fields.bookingDate,
    dataOra: fields.bookingDate,
    startsAt: fields.startsAt,
    localDate: fields.localDate,
    customerName: fields.customerName,
    cliente: fields.customerName,
    customerPhone: fields.customerPhone,
    customerEmail: fields.customerEmail,
    lingua: fields.lingua,
    tableIds: fields.tableIds,
    combinationId: fields.combinationId,
    assegnazione: fields.assegnazione,
    notes: fields.notes,
    state: fields.state,
    durationMinutes: fields.durationMinutes,
    effectiveDurationMinutes: fields.effectiveDurationMinutes,
    motivo: null,
    cancelledAt: null,
    externalId: fields.externalId,
    createdAt: now,
    updatedAt: now,
    version: 1,
    claimRev: 1,
  };
}

/** The id of an imported booking: derived from the terminal's externalId, so re-uploads find it. */
export function importedId(externalId: string): string {
  return `ext_${createHash('sha256').update(externalId).digest('hex').slice(0, 32)}`;
}

/** 6 characters from an alphabet without look-alikes (no 0/O, 1/I/L). */
export const CODICE_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';
export const CODICE_LENGTH = 6;

export function generateCodice(): string {
  let codice = '';
  for (let i = 0; i < CODICE_LENGTH; i++) codice += CODICE_ALPHABET[randomInt(CODICE_ALPHABET.length)];
  return codice;
}

/**
 * The record as the events show it (internal bookkeeping left out; the effective duration is read through
 * GraphQL's effectiveDurationMinutes/endsAt, which also answer for records stored before it existed).
 */
export function publicPrenotazione(record: PrenotazioneRecord) {
  const { version: _v, claimRev: _c, localDate: _d, effectiveDurationMinutes: _e, ...visible } = record;
  const assegnazione = assegnazioneOf(record);
  const origine = origineOf(record);
  const canale = record.canale ?? null;
  const lingua = linguaOf(record);
  return {
    ...visible,
    customerEmail: record.customerEmail ?? null,
    lingua,
    language: lingua,
    combinationId: record.combinationId ?? null,
    assegnazione,
    assignment: assegnazione,
    origine,
    source: origine,
    canale,
    channel: canale,
  };
}

/** The language of a booking that names none: tenants have no language setting yet, so Italian. */
export const DEFAULT_LINGUA: Lingua = 'it';

/** `lingua|language`: as booked; a record stored before it existed has the default. */
export function linguaOf(record: Pick<PrenotazioneRecord, 'lingua'>): Lingua {
  return record.lingua ?? DEFAULT_LINGUA;
}

/** How the booking's tables were chosen; records stored before auto-assignment existed are manual. */
export function assegnazioneOf(record: Pick<PrenotazioneRecord, 'assegnazione'>): Assegnazione {
  return record.assegnazione ?? 'manual';
}

/** `origine|source`: stored on new bookings; an older record is `pos` when the batch made it, else `staff`. */
export function origineOf(record: Pick<PrenotazioneRecord, 'origine' | 'externalId'>): Origine {
  return record.origine ?? (record.externalId ? 'pos' : 'staff');
}
