import type { StatoAttesa } from '../generated/resolvers-types.js';

/** Waitlist states: schema.graphql's enum StatoAttesa, the one declaration (generated into TypeScript). */
export type { StatoAttesa } from '../generated/resolvers-types.js';

/**
 * The waitlist's transition table: waiting -> notified -> seated | left | cancelled, and waiting straight to
 * any of the three; seated, left and cancelled are final. Keyed by every state of the schema's enum.
 */
export const WAITLIST_TRANSITIONS: Readonly<Record<StatoAttesa, readonly StatoAttesa[]>> = {
  waiting: ['notified', 'seated', 'left', 'cancelled'],
  notified: ['seated', 'left', 'cancelled'],
  seated: [],
  left: [],
  cancelled: [],
};

/** The states of a party still waiting for a table (they are in the queue). */
export const ACTIVE_WAITLIST_STATES: readonly StatoAttesa[] = ['waiting', 'notified'];

export function isWaiting(state: StatoAttesa): boolean {
  return ACTIVE_WAITLIST_STATES.includes(state);
}

/** 'same' (no-op, no event), 'allowed', or 'refused' (409 INVALID_TRANSITION). */
export function waitlistTransition(from: StatoAttesa, to: StatoAttesa): 'same' | 'allowed' | 'refused' {
  if (from === to) return 'same';
  return WAITLIST_TRANSITIONS[from].includes(to) ? 'allowed' : 'refused';
}

/**
 * A seating in progress, written on the entry before anything else (see WaitlistService.seat): the booking's
 * fixed id, its tables, its start and its turn time. While it is there, every reader of the entry finishes the
 * seating first, so a crash between the writes is rolled forward, never left half done.
 */
export interface SeatingIntent {
  prenotazioneId: string;
  tableIds: string[];
  combinationId: string | null;
  /** The booking's start: the moment the host seated the party (UTC instant). */
  startsAt: string;
  turnMinutes: number;
}

/** A party on the waitlist, as stored in `lista_attesa` (both name forms of the aliased attributes). */
export interface WaitlistRecord {
  id: string;
  customerName: string;
  cliente: string;
  covers: number;
  numeroPersone: number;
  customerPhone: string | null;
  notes: string | null;
  state: StatoAttesa;
  /** Minutes promised when the party was added (null: no table or combination of the tenant holds it). */
  quotedMinutes: number | null;
  quotedAt: string;
  notifiedAt: string | null;
  seatedAt: string | null;
  prenotazioneId: string | null;
  tableIds: string[];
  motivo: string | null;
  /** Restaurant-local date the party was added on: the list is the day's. */
  localDate: string;
  seating: SeatingIntent | null;
  createdAt: string;
  updatedAt: string;
  version: number;
}

/** The entry as the API and the events show it, with its place in the queue and the current estimate. */
export interface WaitlistView extends Omit<WaitlistRecord, 'version' | 'seating' | 'localDate'> {
  position: number | null;
  estimatedMinutes: number | null;
  suggestedTableIds: string[];
  suggestedCombinationId: string | null;
}

export interface QueuePlace {
  position: number;
  estimatedMinutes: number | null;
  suggestedTableIds: string[];
  suggestedCombinationId: string | null;
}

/** The public form of an entry; `place` is its place in today's queue (none for a final state). */
export function publicEntry(record: WaitlistRecord, place?: QueuePlace | null): WaitlistView {
  const { version: _v, seating: _s, localDate: _d, ...visible } = record;
  return {
    ...visible,
    position: place?.position ?? null,
    estimatedMinutes: place?.estimatedMinutes ?? null,
    suggestedTableIds: place?.suggestedTableIds ?? [],
    suggestedCombinationId: place?.suggestedCombinationId ?? null,
  };
}
