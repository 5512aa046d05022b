import type { Assegnazione } from '../generated/resolvers-types.js';

/** An option (a hold while a guest completes a booking), as stored in `opzioni`. */
export interface OpzioneRecord {
  id: string;
  tableIds: string[];
  combinationId: string | null;
  /** Restaurant-local wall clock, `YYYY-MM-DDTHH:mm:ss`. */
  bookingDate: string;
  dataOra: string;
  localDate: string;
  /** [startsAt, endsAt): the window the tables are held for, UTC instants. */
  startsAt: string;
  endsAt: string;
  covers: number;
  numeroPersone: number;
  durationMinutes: number | null;
  expiresAt: string;
  assegnazione: Assegnazione;
  /** The claim attempt whose agenda entries belong to this option. */
  claimId: string;
  /** Set once, by compare-and-set, when a booking is made from the option. */
  usedAt: string | null;
  /** Set when the option is released before it expires. */
  releasedAt: string | null;
  createdAt: string;
  /** The booking channel that holds it (absent: staff); only that channel may book from it or release it. */
  canaleId?: string | null;
}

/** TTL bounds of an option in seconds (decisions "Seating"). */
export const OPTION_TTL_RANGE = [30, 900] as const;
export const DEFAULT_OPTION_TTL_SECONDS = 300;

/** Whether the option still holds its tables at `now` (ISO instant). */
export function isLiveOption(option: OpzioneRecord, now: string): boolean {
  return option.usedAt === null && option.releasedAt === null && option.expiresAt > now;
}

/** Whether the caller may use the option: staff any, a channel its own only. */
export function heldBy(option: OpzioneRecord, channelId: string | null | undefined): boolean {
  return !channelId || option.canaleId === channelId;
}
