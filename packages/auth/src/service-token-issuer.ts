import { randomUUID } from 'node:crypto';
import { SignJWT } from 'jose';
import { MIN_HMAC_SECRET_BYTES } from './algorithms.js';
import {
  CHANNEL_ROLE,
  GOOGLE_ROLE,
  GUEST_ROLE,
  PAYMENTS_ROLE,
  PRIVACY_ROLE,
  SERVICE_TOKEN_ISSUER,
  type ChannelOrigine,
} from './service-grant.js';
import { isValidTenantId } from './tenant-id.js';

/**
 * A channel key lives until its channel is deleted (then it is refused at once, see ChannelDirectory); `exp` is
 * required of every token, so it is set this far ahead.
 */
export const CHANNEL_KEY_LIFETIME_SECONDS = 10 * 365 * 24 * 3600;

/** The longest id a service token names (a channel id, a booking id). */
const MAX_ID_LENGTH = 128;
const MAX_CHANNEL_NAME_LENGTH = 200;

/** A token the service issued, with the instant it stops being accepted. */
export interface IssuedToken {
  token: string;
  expiresAt: Date;
}

/** Signs channel keys and guest tokens with the service's own key (HS256, issuer SERVICE_TOKEN_ISSUER). */
export interface ServiceTokenIssuer {
  /**
   * The key of a booking channel (role `channel`, `sub` = the channel id, `name` = its name; `origine` only when
   * not `online`: Reserve with Google's channel).
   */
  channelKey(input: {
    tenantId: string;
    channelId: string;
    channelName: string;
    origine?: ChannelOrigine;
  }): Promise<IssuedToken>;
  /**
   * The token of one booking's guest (role `guest`, `sub` = the booking id), expiring at `expiresAt` (the booking's
   * end). RangeError when that is not in the future: a token born expired would be useless.
   */
  guestToken(input: { tenantId: string; bookingId: string; expiresAt: Date }): Promise<IssuedToken>;
  /** The service's own token for one booking's guarantee (role `payments`, `sub` = the booking id), for 60 s. */
  paymentsToken(input: { tenantId: string; bookingId: string }): Promise<IssuedToken>;
  /** The gateway's own token for Google's booking server acting for `tenantId` (role `google`), for 10 minutes. */
  googleToken(input: { tenantId: string }): Promise<IssuedToken>;
  /** ospiti's own token for erasing guests' data of `tenantId` (role `privacy`), for 60 s. */
  privacyToken(input: { tenantId: string }): Promise<IssuedToken>;
}

/** How long a payments token lives: one webhook's hand-over and the booking move it makes. */
export const PAYMENTS_TOKEN_LIFETIME_SECONDS = 60;

/** How long a `privacy` token lives: one erasure call. */
export const PRIVACY_TOKEN_LIFETIME_SECONDS = 60;

/** How long a `google` token lives: the gateway mints one for itself and reuses it for a few minutes. */
export const GOOGLE_TOKEN_LIFETIME_SECONDS = 600;

/** `secret`: the service-token key (SERVICE_TOKEN_SECRET or the one in DATA_DIR), at least 32 bytes. */
export function createServiceTokenIssuer(options: {
  secret: string;
  now?: () => number;
}): ServiceTokenIssuer {
  const key = new TextEncoder().encode(options.secret);
  if (key.length < MIN_HMAC_SECRET_BYTES.HS256) {
    throw new TypeError(`The service-token key must be at least ${MIN_HMAC_SECRET_BYTES.HS256} bytes`);
  }
  const now = options.now ?? Date.now;

  async function sign(claims: Record<string, unknown>, subject: string, exp: number): Promise<IssuedToken> {
    const token = await new SignJWT(claims)
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setIssuer(SERVICE_TOKEN_ISSUER)
      .setSubject(subject)
      .setJti(randomUUID())
      .setIssuedAt(Math.floor(now() / 1000))
      .setExpirationTime(exp)
      .sign(key);
    return { token, expiresAt: new Date(exp * 1000) };
  }

  const issuer: ServiceTokenIssuer = {
    async channelKey({ tenantId, channelId, channelName, origine }) {
      checkTenant(tenantId);
      checkId('channelId', channelId);
      if (typeof channelName !== 'string' || channelName.length > MAX_CHANNEL_NAME_LENGTH) {
        throw new TypeError(`channelName must be a string of at most ${MAX_CHANNEL_NAME_LENGTH} characters`);
      }
      const exp = Math.floor(now() / 1000) + CHANNEL_KEY_LIFETIME_SECONDS;
      const claims = { tenantId, role: CHANNEL_ROLE, name: channelName };
      return sign(origine && origine !== 'online' ? { ...claims, origine } : claims, channelId, exp);
    },
    async guestToken({ tenantId, bookingId, expiresAt }) {
      checkTenant(tenantId);
      checkId('bookingId', bookingId);
      const exp = Math.ceil(expiresAt.getTime() / 1000);
      if (!Number.isFinite(exp) || exp * 1000 <= now()) {
        throw new RangeError('A guest token must expire in the future');
      }
      return sign({ tenantId, role: GUEST_ROLE }, bookingId, exp);
    },
    async paymentsToken({ tenantId, bookingId }) {
      checkTenant(tenantId);
      checkId('bookingId', bookingId);
      const exp = Math.floor(now() / 1000) + PAYMENTS_TOKEN_LIFETIME_SECONDS;
      return sign({ tenantId, role: PAYMENTS_ROLE }, bookingId, exp);
    },
    async googleToken({ tenantId }) {
      checkTenant(tenantId);
      const exp = Math.floor(now() / 1000) + GOOGLE_TOKEN_LIFETIME_SECONDS;
      return sign({ tenantId, role: GOOGLE_ROLE }, GOOGLE_ROLE, exp);
    },
    async privacyToken({ tenantId }) {
      checkTenant(tenantId);
      const exp = Math.floor(now() / 1000) + PRIVACY_TOKEN_LIFETIME_SECONDS;
      return sign({ tenantId, role: PRIVACY_ROLE }, PRIVACY_ROLE, exp);
    },
  };
  return Object.freeze(issuer);
}

function checkTenant(tenantId: string) {
  if (!isValidTenantId(tenantId)) throw new TypeError('tenantId must be 1-64 characters of A-Z a-z 0-9 _ -');
}

function checkId(name: string, id: string) {
  if (typeof id !== 'string' || id.length === 0 || id.length > MAX_ID_LENGTH) {
    throw new TypeError(`${name} must be a string of 1-${MAX_ID_LENGTH} characters`);
  }
}
