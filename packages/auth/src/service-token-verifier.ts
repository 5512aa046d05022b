import { decodeJwt } from 'jose';
import { UnauthenticatedError } from '@coperto/errors';
import { DEFAULT_MAX_TOKEN_LENGTH } from './auth-options.js';
import { bearerTokenOf } from './bearer.js';
import type { ChannelDirectory } from './channel-directory.js';
import {
  CHANNEL_ORIGINI,
  CHANNEL_ROLE,
  GOOGLE_ROLE,
  GUEST_ROLE,
  PAYMENTS_ROLE,
  PRIVACY_ROLE,
  SERVICE_TOKEN_ISSUER,
  type ChannelOrigine,
  type ServiceGrant,
} from './service-grant.js';
import { createTokenVerifier, type TokenVerifier, type VerifierClock } from './token-verifier.js';
import type { BoundedStats } from '@coperto/async';
import type { Viewer } from './viewer.js';

export interface ServiceTokenVerifierOptions {
  /** The service-token key (the issuer's). */
  secret: string;
  /**
   * Whether a channel still exists: a deleted channel's key is refused (401) although its signature holds. Without
   * one, every channel key is refused (a process that cannot tell must not accept them).
   */
  channels?: ChannelDirectory & { stats?(): BoundedStats };
  /** @default 5 */
  clockToleranceSeconds?: number;
}

/**
 * Verifies the tokens the service issued (service-token-issuer.ts): HS256 with the service key only, `iss` must be
 * SERVICE_TOKEN_ISSUER, `exp` required, `role` `channel`, `guest` or `payments` with a `sub`. The viewer carries the grant
 * (`viewer.grant`), is never an administrator, and has exactly its one role.
 */
export function createServiceTokenVerifier(
  options: ServiceTokenVerifierOptions,
  clock: VerifierClock = { now: Date.now },
): TokenVerifier {
  const base = createTokenVerifier(
    {
      kind: 'secret',
      secret: options.secret,
      algorithms: ['HS256'],
      issuer: SERVICE_TOKEN_ISSUER,
      ...(options.clockToleranceSeconds === undefined
        ? {}
        : { clockToleranceSeconds: options.clockToleranceSeconds }),
    },
    clock,
  );
  // The base verifier answers a token seen before with the same frozen Viewer: its grant is built once.
  const granted = new WeakMap<Viewer, Viewer>();

  async function verify(token: string): Promise<Viewer> {
    const viewer = await base.verify(token);
    let result = granted.get(viewer);
    if (result === undefined) {
      result = withGrant(viewer);
      granted.set(viewer, result);
    }
    const grant = result.grant!;
    if (grant.role === CHANNEL_ROLE) {
      const active =
        (await options.channels?.isActive(result.tenantId, grant.channelId, result.token)) ?? false;
      if (!active) throw new UnauthenticatedError('Channel key revoked');
    }
    return result;
  }

  return Object.freeze({
    verify,
    verifyAuthorizationHeader: async (header: string | undefined) =>
      verify(bearerTokenOf(header, DEFAULT_MAX_TOKEN_LENGTH)),
    bounded: () => {
      const channels = options.channels?.stats?.();
      return { ...base.bounded(), ...(channels ? { channel_directory: channels } : {}) };
    },
  });
}

/** The viewer of a verified service token, with its grant; 401 when the claims do not make one. */
function withGrant(viewer: Viewer): Viewer {
  const claims = decodeJwt(viewer.token);
  const { role, roles, sub, name, origine = 'online' } = claims;
  if (roles !== undefined) throw new UnauthenticatedError('Token roles claim is invalid');
  if (typeof sub !== 'string' || sub.length === 0)
    throw new UnauthenticatedError('Token sub claim is invalid');
  let grant: ServiceGrant;
  if (role === CHANNEL_ROLE && typeof name === 'string' && isChannelOrigine(origine)) {
    grant = Object.freeze({ role: CHANNEL_ROLE, channelId: sub, channelName: name, origine });
  } else if (role === GUEST_ROLE) {
    grant = Object.freeze({ role: GUEST_ROLE, bookingId: sub });
  } else if (role === PAYMENTS_ROLE) {
    grant = Object.freeze({ role: PAYMENTS_ROLE, bookingId: sub });
  } else if (role === GOOGLE_ROLE) {
    grant = Object.freeze({ role: GOOGLE_ROLE });
  } else if (role === PRIVACY_ROLE) {
    grant = Object.freeze({ role: PRIVACY_ROLE });
  } else {
    throw new UnauthenticatedError('Token role claim is invalid');
  }
  return Object.freeze({
    tenantId: viewer.tenantId,
    subject: sub,
    roles: Object.freeze([grant.role]),
    isAdmin: false,
    token: viewer.token,
    grant,
  });
}

function isChannelOrigine(value: unknown): value is ChannelOrigine {
  return (CHANNEL_ORIGINI as readonly unknown[]).includes(value);
}
