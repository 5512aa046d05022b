import type { ServiceTokenIssuer, Viewer } from '@coperto/auth';
import { AppError, NotFoundError } from '@coperto/errors';
import { endsAt } from '../seating/holds.js';
import type { PrenotazioneRecord } from './prenotazione-record.js';

/** A booking's guest token as the API shows it (`gestione|manage`). */
export interface Gestione {
  token: string;
  expiresAt: string;
}

/**
 * Issues guest tokens (docs/channels.md, "Guest tokens"): role guest, the tenant, the booking id, expiring at the
 * booking's end. The channel that made a booking gets its token in the answer; staff ask for one.
 */
export class GuestTokens {
  /** One token per booking and request, whichever of `gestione` and `manage` asked first. */
  private readonly issued = new Map<string, Promise<Gestione | null>>();

  constructor(
    private readonly deps: {
      viewer: Viewer;
      /** The service's token issuer; absent where the process cannot issue tokens (then no token is given). */
      issuer: ServiceTokenIssuer | undefined;
      findById: (id: string) => Promise<PrenotazioneRecord | null>;
      now: () => Date;
    },
  ) {}

  /** The token for a booking the caller (a channel) has just made; null for every other caller or booking. */
  async forChannelBooking(record: PrenotazioneRecord): Promise<Gestione | null> {
    const { grant } = this.deps.viewer;
    if (grant?.role !== 'channel' || record.canale?.id !== grant.channelId) return null;
    if (!this.stillRunning(record)) return null;
    let token = this.issued.get(record.id);
    if (token === undefined) {
      token = this.issue(record);
      this.issued.set(record.id, token);
    }
    return token;
  }

  /** Staff: a token for booking `id` (404 unknown; 409 when it has already ended: a token would be born expired). */
  async forStaff(id: string): Promise<Gestione> {
    const record = await this.deps.findById(id);
    if (!record) throw new NotFoundError('Prenotazione', id);
    if (!this.stillRunning(record)) {
      throw new AppError(
        'INVALID_TRANSITION',
        'The booking has ended: there is nothing left for its guest to do',
        {
          from: record.state,
          to: 'gestione',
        },
      );
    }
    return this.issue(record);
  }

  private stillRunning(record: PrenotazioneRecord): boolean {
    return Date.parse(endsAt(record)) > this.deps.now().getTime() + 1000;
  }

  private async issue(record: PrenotazioneRecord): Promise<Gestione> {
    const { issuer, viewer } = this.deps;
    if (!issuer) throw new Error('This process issues no guest tokens: its deps need serviceTokens');
    const issued = await issuer.guestToken({
      tenantId: viewer.tenantId,
      bookingId: record.id,
      expiresAt: new Date(endsAt(record)),
    });
    return { token: issued.token, expiresAt: issued.expiresAt.toISOString() };
  }
}
