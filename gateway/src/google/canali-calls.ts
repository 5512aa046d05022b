import { parse } from 'graphql';
import type { SubgraphClient, TypedDocumentNode } from '@coperto/server-kit';
import type { GoogleTokens } from './google-tokens.js';

type Doc<R, V> = TypedDocumentNode<R, V>;
const doc = <R, V>(text: string) => parse(text) as Doc<R, V>;

/** What CreateBooking's idempotency token found in canali. */
export type Claim = { status: 'claimed' } | { status: 'done'; answer: string } | { status: 'pending' };

/** A restaurant as the booking server acts for it: its tenant and its Google channel. */
export interface Merchant {
  merchantId: string;
  tenantId: string;
  channelId: string;
}

const MERCHANT = doc<
  { googleMerchant: { tenantId: string; channelId: string } | null },
  { merchantId: string }
>(
  'query GoogleMerchant($merchantId: String!) { googleMerchant(merchantId: $merchantId) { tenantId channelId } }',
);
const USER_MERCHANTS = doc<{ googleUserMerchants: string[] }, { userId: string }>(
  'query GoogleUserMerchants($userId: String!) { googleUserMerchants(userId: $userId) }',
);
const CLAIM = doc<
  { claimGoogleBooking: { status: string; answer: string | null } },
  { token: string; userId: string | null }
>(
  'mutation ClaimGoogleBooking($token: String!, $userId: String) { claimGoogleBooking(token: $token, userId: $userId) { status answer } }',
);
const COMPLETE = doc<
  { completeGoogleBooking: boolean },
  { token: string; answer: string; bookingId: string | null; userId: string | null; merchantId: string }
>(
  'mutation CompleteGoogleBooking($token: String!, $answer: String!, $bookingId: ID, $userId: String, $merchantId: String!) { completeGoogleBooking(token: $token, answer: $answer, bookingId: $bookingId, userId: $userId, merchantId: $merchantId) }',
);
const RELEASE = doc<{ releaseGoogleBooking: boolean }, { token: string }>(
  'mutation ReleaseGoogleBooking($token: String!) { releaseGoogleBooking(token: $token) }',
);
const BOOKING = doc<
  { googleBooking: { bookingId: string | null; userId: string | null } | null },
  { bookingId: string }
>('query GoogleBooking($bookingId: ID!) { googleBooking(bookingId: $bookingId) { bookingId userId } }');
const BOOKINGS = doc<{ googleBookings: Array<{ bookingId: string | null }> }, { userId: string }>(
  'query GoogleBookings($userId: String!) { googleBookings(userId: $userId) { bookingId } }',
);

/**
 * canali's Google records, asked straight at canali (in-process or over HTTP) with the booking server's own token:
 * these fields are not part of the public API (`@inaccessible`).
 */
export class GoogleRecords {
  constructor(
    private readonly canali: SubgraphClient,
    private readonly tokens: GoogleTokens,
  ) {}

  /** The restaurant that linked `merchantId` (with its Google channel still there), or null. */
  async merchant(merchantId: string): Promise<Merchant | null> {
    const { googleMerchant } = await this.canali.request(
      'canali',
      MERCHANT,
      { merchantId },
      await this.tokens.directory(),
    );
    return googleMerchant && { merchantId, ...googleMerchant };
  }

  async userMerchants(userId: string): Promise<string[]> {
    const auth = await this.tokens.directory();
    return (await this.canali.request('canali', USER_MERCHANTS, { userId }, auth)).googleUserMerchants;
  }

  async claim(merchant: Merchant, token: string, userId: string | null): Promise<Claim> {
    const auth = await this.tokens.server(merchant.tenantId);
    const { claimGoogleBooking: found } = await this.canali.request('canali', CLAIM, { token, userId }, auth);
    if (found.status === 'done') return { status: 'done', answer: found.answer ?? 'null' };
    return found.status === 'claimed' ? { status: 'claimed' } : { status: 'pending' };
  }

  async complete(
    merchant: Merchant,
    done: { token: string; answer: string; bookingId: string | null; userId: string | null },
  ): Promise<void> {
    const auth = await this.tokens.server(merchant.tenantId);
    await this.canali.request('canali', COMPLETE, { ...done, merchantId: merchant.merchantId }, auth);
  }

  async release(merchant: Merchant, token: string): Promise<void> {
    const auth = await this.tokens.server(merchant.tenantId);
    await this.canali.request('canali', RELEASE, { token }, auth);
  }

  /** Whether `bookingId` is a booking Google made with this restaurant, and for which Google user. */
  async booking(merchant: Merchant, bookingId: string): Promise<{ userId: string | null } | null> {
    const auth = await this.tokens.server(merchant.tenantId);
    const { googleBooking } = await this.canali.request('canali', BOOKING, { bookingId }, auth);
    return googleBooking && { userId: googleBooking.userId };
  }

  async bookingsOf(merchant: Merchant, userId: string): Promise<string[]> {
    const auth = await this.tokens.server(merchant.tenantId);
    const { googleBookings } = await this.canali.request('canali', BOOKINGS, { userId }, auth);
    return googleBookings.flatMap((b) => (b.bookingId ? [b.bookingId] : []));
  }
}
