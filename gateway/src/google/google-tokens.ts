import type { ServiceTokenIssuer } from '@coperto/auth';
import type { BoundedStats } from '@coperto/metrics';
import { createCountedLru } from '../host/counted-lru.js';

/** The tenant the booking server names in the token it asks canali's directory with (any valid id would do). */
const DIRECTORY_CALLER = 'google-booking-server';
/** A cached token is used until this long before it expires. */
const RENEW_BEFORE_MS = 120_000;
/** Guest tokens the booking server mints to read or change one booking live this long. */
const GUEST_TOKEN_MS = 300_000;
const MAX_CACHED = 10_000;

/**
 * The tokens Google's booking server acts with (all signed with the service key, none ever handed out):
 * its own `google` token for canali's Google records, the restaurant's Google channel key to search and book (so a
 * booking is made exactly as a channel makes it, origine `google`), and a guest token per booking to read, change or
 * cancel it. Tokens are reused while they have a few minutes left.
 */
export class GoogleTokens {
  private readonly cached = createCountedLru<{ token: string; expiresAt: number }>(MAX_CACHED);

  constructor(
    private readonly issuer: ServiceTokenIssuer,
    private readonly now: () => number = Date.now,
  ) {}

  /** The booking server's token for canali's directory (merchant ids, users). */
  directory(): Promise<string> {
    return this.server(DIRECTORY_CALLER);
  }

  /** The booking server's token for one restaurant's Google records. */
  server(tenantId: string): Promise<string> {
    return this.reuse(`google\n${tenantId}`, () => this.issuer.googleToken({ tenantId }));
  }

  /** The key of the restaurant's Google channel. */
  channel(tenantId: string, channelId: string): Promise<string> {
    return this.reuse(`channel\n${tenantId}\n${channelId}`, () =>
      this.issuer.channelKey({ tenantId, channelId, channelName: 'Google', origine: 'google' }),
    );
  }

  /** The minted tokens kept against their bound (`bounded_state_*{structure="google_tokens"}`). */
  stats(): BoundedStats {
    return this.cached.stats();
  }

  /** A short guest token for one booking (read, change, cancel). */
  async guest(tenantId: string, bookingId: string): Promise<string> {
    const expiresAt = new Date(this.now() + GUEST_TOKEN_MS);
    return (await this.issuer.guestToken({ tenantId, bookingId, expiresAt })).token;
  }

  private async reuse(key: string, mint: () => Promise<{ token: string; expiresAt: Date }>) {
    const fresh = this.cached.get(key, (hit) => hit.expiresAt - RENEW_BEFORE_MS > this.now());
    if (fresh) return `Bearer ${fresh.token}`;
    const { token, expiresAt } = await mint();
    this.cached.set(key, { token, expiresAt: expiresAt.getTime() });
    return `Bearer ${token}`;
  }
}
