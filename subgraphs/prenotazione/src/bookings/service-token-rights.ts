import type { Viewer } from '@coperto/auth';
import { ForbiddenError, NotFoundError } from '@coperto/errors';
import { InputChecks } from '@coperto/domain';
import type {
  BookingState,
  OpzioneInput,
  PrenotazioneInput,
  PrenotazionePatch,
} from '../generated/resolvers-types.js';

/** The longest hold a channel may ask for, in seconds (decisions: "an option with autoAssign (ttl <= 600)"). */
export const CHANNEL_OPTION_MAX_TTL_SECONDS = 600;

/**
 * Where a booking came from (`origine|source`): staff, a booking channel (`online`, or `google` for Reserve with
 * Google's channel), the point-of-sale batch.
 */
export type Origine = 'staff' | 'online' | 'google' | 'pos';

/** What a guest token may change of its booking (either name of each); everything else in a PATCH is a 400. */
const GUEST_PATCH_FIELDS: ReadonlySet<string> = new Set([
  'covers',
  'numeroPersone',
  'bookingDate',
  'dataOra',
  'notes',
]);

/** The channel a booking or an option was made through. */
export interface ChannelRef {
  id: string;
  nome: string;
}

/** The `origine` of the caller's bookings when it is a channel key (its key says `online` or `google`). */
export function channelOrigine(viewer: Viewer): Origine | null {
  const { grant } = viewer;
  return grant?.role === 'channel' ? grant.origine : null;
}

/**
 * What this subgraph lets a channel key or a guest token do beyond the gateway's table of root fields (the request
 * may reach a subgraph port directly): a channel books and holds only by the autoAssign rule (or from its own
 * option), names its guest and a way to reach them, and never picks tables, a state or an external id; a guest token
 * reads, confirms, cancels and changes (covers, time, notes, placed again by the autoAssign rule) its own booking
 * only: any other booking does not exist for it. Staff are not limited here.
 */
export class ServiceTokenRights {
  constructor(private readonly viewer: Viewer) {}

  /** The caller's channel, when the caller is a channel key. */
  get channel(): ChannelRef | null {
    const { grant } = this.viewer;
    return grant?.role === 'channel' ? { id: grant.channelId, nome: grant.channelName } : null;
  }

  /** The booking a guest token is for; null for any other caller. */
  get guestBookingId(): string | null {
    const { grant } = this.viewer;
    return grant?.role === 'guest' ? grant.bookingId : null;
  }

  /** The one booking a guest token or the service's payments token (garanzie) is for; null for any other caller. */
  private get grantedBookingId(): string | null {
    const { grant } = this.viewer;
    return grant?.role === 'guest' || grant?.role === 'payments' ? grant.bookingId : null;
  }

  /** Whether the caller may see booking `id` at all (a guest, a payments token: its own only). */
  maySee(id: string): boolean {
    const own = this.grantedBookingId;
    return own === null || own === id;
  }

  /**
   * A payments token (garanzie) moves its booking to caparra_pagata (its guarantee in place) or annullata (its
   * guarantee not provided in time) only.
   */
  checkStateChange(id: string, to: BookingState): void {
    this.requireVisible(id);
    if (this.viewer.grant?.role === 'payments' && to !== 'caparra_pagata' && to !== 'annullata') {
      throw new ForbiddenError('A payments token only moves its booking to caparra_pagata or annullata');
    }
  }

  /**
   * Of `records`, those the caller may see where a list of bookings is reached through another type (a table's
   * bookings, an entity reference): staff all, a guest its own, a channel none (it books, it never reads others').
   */
  visible<T extends { id: string }>(records: readonly T[]): T[] {
    const { grant } = this.viewer;
    if (grant === undefined) return [...records];
    return grant.role === 'guest' || grant.role === 'payments'
      ? records.filter((r) => r.id === grant.bookingId)
      : [];
  }

  /** 404 for a booking the caller may not see, exactly as for one that does not exist. */
  requireVisible(id: string): void {
    if (!this.maySee(id)) throw new NotFoundError('Prenotazione', id);
  }

  /**
   * The patch to apply: a guest's may hold only covers, bookingDate and notes (else 400 naming the others), and a
   * change of covers or time is placed again by the autoAssign rule (nothing fits: 409, the booking unchanged).
   */
  patchFor(id: string, patch: PrenotazionePatch): PrenotazionePatch {
    if (this.guestBookingId === null) return patch;
    this.requireVisible(id);
    const checks = new InputChecks();
    for (const [field, value] of Object.entries(patch)) {
      if (value != null && !GUEST_PATCH_FIELDS.has(field))
        checks.add(field, 'is not accepted from a guest token');
    }
    checks.throwIfAny();
    const moves = [patch.covers, patch.numeroPersone, patch.bookingDate, patch.dataOra].some(
      (v) => v != null,
    );
    return moves ? { ...patch, autoAssign: true } : patch;
  }

  /** Only staff ask for a guest token (a channel gets its booking's in the 201). */
  requireStaff(action: string): void {
    const { grant } = this.viewer;
    if (grant !== undefined) throw new ForbiddenError(`A ${grant.role} token cannot ${action}`);
  }

  checkBooking(input: PrenotazioneInput): void {
    if (this.refuseGuest()) return;
    const checks = new InputChecks();
    forbid(checks, input, ['tableIds', 'combinationId', 'state', 'externalId']);
    const fromOption = (input.opzioneId ?? input.holdId) != null;
    if (!fromOption && input.autoAssign !== true) {
      checks.add('autoAssign', 'must be true for a booking channel (or book from its option)');
    }
    if ((input.customerName ?? input.cliente) == null) checks.add('customerName', 'is required');
    if (input.customerPhone == null && input.customerEmail == null) {
      checks.add('customerPhone', 'or customerEmail is required from a booking channel');
    }
    checks.throwIfAny();
  }

  checkOption(input: OpzioneInput): void {
    if (this.refuseGuest()) return;
    const checks = new InputChecks();
    forbid(checks, input, ['tableIds', 'combinationId']);
    if (input.autoAssign !== true) checks.add('autoAssign', 'must be true for a booking channel');
    if (input.ttl != null && input.ttl > CHANNEL_OPTION_MAX_TTL_SECONDS) {
      checks.add('ttl', `must be at most ${CHANNEL_OPTION_MAX_TTL_SECONDS} seconds for a booking channel`);
    }
    checks.throwIfAny();
  }

  /** A guest (or payments) token may not create or hold anything; staff pass; a channel goes on to its own checks. */
  private refuseGuest(): boolean {
    const { grant } = this.viewer;
    if (grant !== undefined && grant.role !== 'channel')
      throw new ForbiddenError(`A ${grant.role} token cannot do this`);
    return grant === undefined;
  }
}

function forbid<T extends object>(checks: InputChecks, input: T, fields: readonly (keyof T & string)[]) {
  for (const field of fields) {
    if (input[field] != null) checks.add(field, 'is not accepted from a booking channel');
  }
}
