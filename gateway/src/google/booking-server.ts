import { sleep } from '@coperto/async';
import { AppError, NotFoundError, UnavailableError } from '@coperto/errors';
import type { Acting, GoogleApi } from './api-calls.js';
import { mapWithConcurrency } from '@coperto/async';
import type { GoogleRecords, Merchant } from './canali-calls.js';
import { offeredKey, searchDays } from './day-searches.js';
import type { GoogleTokens } from './google-tokens.js';
import {
  ALREADY_CANCELLED,
  bookingFailureOf,
  bookingInput,
  googleStatusOf,
  isAvailable,
  parseGoogleBookingId,
  slotSearches,
  toGoogleBooking,
  updateIntent,
  type CopertoBooking,
} from './mapping.js';
import type {
  BatchAvailabilityLookupRequest,
  Booking,
  BookingAnswer,
  CreateBookingRequest,
  GetBookingStatusRequest,
  ListBookingsRequest,
  UpdateBookingRequest,
} from './wire.js';

/** Bookings ListBookings reads at once. */
const READ_CONCURRENCY = 8;
/** How long a CreateBooking repeat waits for the first attempt's answer before asking Google to retry. */
const PENDING_WAIT_MS = 5_000;
const PENDING_POLL_MS = 100;

export interface BookingServerDeps {
  api: GoogleApi;
  records: GoogleRecords;
  tokens: GoogleTokens;
  timeZone: string;
}

/**
 * Google's booking server (Actions Center API v3, docs/integrations.md), a thin adapter: each method finds the
 * restaurant by its merchant id and maps onto the API's own operations with the restaurant's Google channel key (or a
 * booking's guest token). Business refusals are answered as `booking_failure` (HTTP 200); a bad request, an unknown
 * merchant or booking and an outage are HTTP errors.
 */
export class BookingServer {
  constructor(private readonly deps: BookingServerDeps) {}

  async batchAvailabilityLookup(request: BatchAvailabilityLookupRequest, requestId: string) {
    const merchant = await this.merchant(request.merchant_id);
    const acting = await this.asChannel(merchant, requestId);
    const { timeZone } = this.deps;
    const searchOf = slotSearches(timeZone);
    const wanted = new Map<string, Set<number>>();
    for (const slot of request.slot_time) {
      const { date, covers } = searchOf(slot);
      wanted.set(date, (wanted.get(date) ?? new Set()).add(covers));
    }
    const offered = await searchDays(this.deps.api, acting, wanted, timeZone);
    return {
      slot_time_availability: request.slot_time.map((slot) => {
        const { date, covers } = searchOf(slot);
        return { slot_time: slot, available: isAvailable(slot, offered.get(offeredKey(date, covers))!) };
      }),
    };
  }

  /**
   * Makes the booking once per idempotency token: the token is claimed in canali by a unique insert; a repeat gets
   * the answer the first attempt gave (a booking or a booking_failure), waiting for it while it runs.
   */
  async createBooking(request: CreateBookingRequest, requestId: string): Promise<BookingAnswer> {
    const merchant = await this.merchant(request.slot.merchant_id);
    const { records } = this.deps;
    const token = request.idempotency_token;
    const userId = request.user_information.user_id ?? null;
    const deadline = Date.now() + PENDING_WAIT_MS;
    for (;;) {
      const claim = await records.claim(merchant, token, userId);
      if (claim.status === 'done') return JSON.parse(claim.answer) as BookingAnswer;
      if (claim.status === 'claimed') break;
      if (Date.now() >= deadline) throw new UnavailableError('The same booking is still being made: retry');
      await sleep(PENDING_POLL_MS);
    }
    let answer: BookingAnswer;
    let bookingId: string | null = null;
    try {
      const acting = await this.asChannel(merchant, requestId);
      const booking = await this.deps.api.create(acting, bookingInput(request, this.deps.timeZone));
      bookingId = booking.id;
      answer = { booking: toGoogleBooking(booking, merchant.merchantId, request.user_information) };
    } catch (error) {
      const failure = error instanceof AppError ? bookingFailureOf(error.code, false) : null;
      if (!failure) {
        // No booking was made: the token is given up, so that Google's retry tries again.
        await records.release(merchant, token).catch(() => {});
        throw error;
      }
      answer = { booking_failure: failure };
    }
    await records.complete(merchant, { token, answer: JSON.stringify(answer), bookingId, userId });
    return answer;
  }

  async updateBooking(request: UpdateBookingRequest, requestId: string): Promise<BookingAnswer> {
    const { merchant, bookingId, acting } = await this.googleBooking(request.booking.booking_id, requestId);
    const intent = updateIntent(request, this.deps.timeZone);
    const current = await this.read(acting, bookingId);
    if (current.state === 'annullata') return { booking_failure: ALREADY_CANCELLED };
    if (!intent) return { booking: toGoogleBooking(current, merchant.merchantId, undefined) };
    try {
      const changed =
        intent.kind === 'cancel'
          ? await this.deps.api.cancel(acting, bookingId)
          : await this.deps.api.update(acting, bookingId, intent.patch);
      return { booking: toGoogleBooking(changed, merchant.merchantId, undefined) };
    } catch (error) {
      const failure =
        error instanceof AppError ? bookingFailureOf(error.code, intent.kind === 'cancel') : null;
      if (!failure) throw error;
      return { booking_failure: failure };
    }
  }

  async getBookingStatus(request: GetBookingStatusRequest, requestId: string) {
    const { bookingId, acting } = await this.googleBooking(request.booking_id, requestId);
    const booking = await this.read(acting, bookingId);
    return {
      booking_id: request.booking_id,
      booking_status: googleStatusOf(booking.state),
      prepayment_status: 'PREPAYMENT_NOT_PROVIDED',
    };
  }

  /** Every booking the Google user made through Coperto, with every restaurant. */
  async listBookings(request: ListBookingsRequest, requestId: string): Promise<{ bookings: Booking[] }> {
    const userId = request.user_id;
    const merchantIds = await this.deps.records.userMerchants(userId);
    const perMerchant = await mapWithConcurrency(merchantIds, READ_CONCURRENCY, async (merchantId) => {
      const merchant = await this.deps.records.merchant(merchantId);
      if (!merchant) return [];
      const ids = await this.deps.records.bookingsOf(merchant, userId);
      const bookings = await mapWithConcurrency(ids, READ_CONCURRENCY, async (id) => {
        const acting = await this.asGuest(merchant, id, requestId);
        return this.deps.api.read(acting, id);
      });
      return bookings.flatMap((booking) =>
        booking ? [toGoogleBooking(booking, merchantId, { user_id: userId })] : [],
      );
    });
    return { bookings: perMerchant.flat() };
  }

  private async merchant(merchantId: string): Promise<Merchant> {
    const merchant = await this.deps.records.merchant(merchantId);
    if (!merchant) throw new NotFoundError('Merchant', merchantId);
    return merchant;
  }

  /** A booking Google made (its restaurant, its id, a guest token for it); 404 for any other id. */
  private async googleBooking(googleId: string, requestId: string) {
    const parsed = parseGoogleBookingId(googleId);
    const merchant = parsed && (await this.deps.records.merchant(parsed.merchantId));
    if (!parsed || !merchant || !(await this.deps.records.booking(merchant, parsed.bookingId))) {
      throw new NotFoundError('Booking', googleId);
    }
    const acting = await this.asGuest(merchant, parsed.bookingId, requestId);
    return { merchant, bookingId: parsed.bookingId, acting };
  }

  private async read(acting: Acting, bookingId: string): Promise<CopertoBooking> {
    const booking = await this.deps.api.read(acting, bookingId);
    if (!booking) throw new NotFoundError('Booking', bookingId);
    return booking;
  }

  private async asChannel(merchant: Merchant, requestId: string): Promise<Acting> {
    return {
      authorization: await this.deps.tokens.channel(merchant.tenantId, merchant.channelId),
      requestId,
    };
  }

  private async asGuest(merchant: Merchant, bookingId: string, requestId: string): Promise<Acting> {
    return {
      authorization: `Bearer ${await this.deps.tokens.guest(merchant.tenantId, bookingId)}`,
      requestId,
    };
  }
}
