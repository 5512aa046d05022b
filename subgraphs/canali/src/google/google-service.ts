import { randomUUID } from 'node:crypto';
import { requireAdmin, trustedTenantId, type Viewer } from '@coperto/auth';
import { AppError, ForbiddenError } from '@coperto/errors';
import { DuplicateKeyError, type DocumentStore } from '@coperto/store';
import { CanaleStore } from '../canale-store.js';
import { readGoogleId, readMerchantId } from './google-input.js';
import {
  GOOGLE_CLAIM_STALE_MS,
  GOOGLE_LIMITS,
  type GoogleMerchantRecord,
  type GooglePrenotazioneRecord,
} from './google-records.js';
import { GoogleDirectoryStore, GooglePrenotazioniStore } from './google-store.js';

export interface GoogleServiceDeps {
  store: DocumentStore;
  viewer: Viewer;
  now: () => Date;
}

/** The name of the booking channel Google's bookings are made through. */
export const GOOGLE_CHANNEL_NAME = 'Google';

/** What a CreateBooking repeat finds: its claim taken now, the answer given before, or the first still running. */
export type GoogleClaim = { status: 'claimed' } | { status: 'done'; answer: string } | { status: 'pending' };

/**
 * Reserve with Google's records (docs/integrations.md): administrators link their restaurant to a merchant id; the
 * gateway's booking server (a `google` token, never handed out) finds a merchant's restaurant and keeps each
 * CreateBooking's idempotency token with the answer it gave.
 */
export class GoogleService {
  private readonly directory: GoogleDirectoryStore;

  constructor(private readonly deps: GoogleServiceDeps) {
    this.directory = new GoogleDirectoryStore(deps.store);
  }

  /** Administrator: the restaurant's link, or null when it has none (or deleted Google's channel). */
  async current(): Promise<GoogleMerchantRecord | null> {
    requireAdmin(this.deps.viewer, 'manage integrations');
    const link = await this.directory.linkOf(this.deps.viewer.tenantId);
    return link && (await this.channelActive(link)) ? link : null;
  }

  /**
   * Administrator: links the restaurant to `merchantId` (replacing its previous one). A merchant id another
   * restaurant linked is 409 DUPLICATE. Google's bookings go through a channel named Google, made here once.
   */
  async link(merchantIdInput: string): Promise<GoogleMerchantRecord> {
    const { viewer } = this.deps;
    requireAdmin(viewer, 'manage integrations');
    const merchantId = readMerchantId(merchantIdInput);
    const tenant: string = viewer.tenantId;
    const existing = await this.directory.merchant(merchantId);
    if (existing && existing.tenant !== tenant) throw duplicateMerchant(merchantId);
    const previous = existing ?? (await this.directory.linkOf(tenant));
    const channelId =
      previous && (await this.channelActive(previous)) ? previous.channelId : await this.createChannel();
    let linked: GoogleMerchantRecord | null;
    if (existing) {
      linked = await this.directory.merchants.findOneAndUpdate(
        { id: merchantId, tenant },
        { $set: { channelId } },
      );
      if (!linked) throw duplicateMerchant(merchantId);
    } else {
      const record = { id: merchantId, tenant, channelId, linkedAt: this.deps.now().toISOString() };
      try {
        linked = await this.directory.merchants.insertOne(record);
      } catch (error) {
        if (error instanceof DuplicateKeyError) throw duplicateMerchant(merchantId);
        throw error;
      }
    }
    // One merchant id per restaurant: the old one stops finding it.
    await this.directory.merchants.deleteMany({ tenant, id: { $ne: merchantId } });
    return linked;
  }

  /** Booking server: the restaurant that linked `merchantId` and its Google channel; null when none does. */
  async merchant(merchantId: string): Promise<{ tenantId: string; channelId: string } | null> {
    this.requireBookingServer();
    const link = await this.directory.merchant(merchantId);
    if (!link || !(await this.channelActive(link))) return null;
    return { tenantId: link.tenant, channelId: link.channelId };
  }

  /** Booking server: the merchants a Google user booked with (ListBookings names only the user). */
  userMerchants(userId: string): Promise<string[]> {
    this.requireBookingServer();
    return this.directory.merchantsOf(readGoogleId('userId', userId, GOOGLE_LIMITS.userIdMaxLength));
  }

  /**
   * Booking server: claims a CreateBooking idempotency token by a unique insert, so concurrent repeats make one
   * booking: the first claims, the others wait for its answer. A claim left pending past GOOGLE_CLAIM_STALE_MS
   * (its process died) is taken over.
   */
  async claim(tokenInput: string, userId: string | null): Promise<GoogleClaim> {
    this.requireBookingServer();
    const token = readGoogleId('token', tokenInput, GOOGLE_LIMITS.tokenMaxLength);
    const store = this.prenotazioni();
    const now = this.deps.now();
    const record: GooglePrenotazioneRecord = {
      id: token,
      state: 'pending',
      claimedAt: now.toISOString(),
      answer: null,
      bookingId: null,
      userId,
    };
    try {
      await store.insert(record);
      return { status: 'claimed' };
    } catch (error) {
      if (!(error instanceof DuplicateKeyError)) throw error;
    }
    const found = await store.find(token);
    if (!found) return this.claim(token, userId);
    if (found.state === 'done') return { status: 'done', answer: found.answer ?? 'null' };
    if (now.getTime() - Date.parse(found.claimedAt) < GOOGLE_CLAIM_STALE_MS) return { status: 'pending' };
    const taken = await store.takeOver(token, found.claimedAt, now.toISOString());
    return taken ? { status: 'claimed' } : { status: 'pending' };
  }

  /** Booking server: keeps the answer given for the token (and the booking it made, for the user's list). */
  async complete(input: {
    token: string;
    answer: string;
    bookingId: string | null;
    userId: string | null;
    merchantId: string;
  }): Promise<boolean> {
    this.requireBookingServer();
    if (input.bookingId && input.userId) await this.directory.addUser(input.userId, input.merchantId);
    const done = await this.prenotazioni().complete(input.token, {
      answer: input.answer,
      bookingId: input.bookingId,
    });
    return done !== null;
  }

  /** Booking server: gives the token up after a failure that made no booking, so Google's retry tries again. */
  release(token: string): Promise<boolean> {
    this.requireBookingServer();
    return this.prenotazioni().release(token);
  }

  /** Booking server: the Google booking `bookingId` of this restaurant, or null (not made through Google). */
  booking(bookingId: string): Promise<GooglePrenotazioneRecord | null> {
    this.requireBookingServer();
    return this.prenotazioni().byBooking(bookingId);
  }

  /** Booking server: the bookings a Google user made with this restaurant, oldest first. */
  bookings(userId: string): Promise<GooglePrenotazioneRecord[]> {
    this.requireBookingServer();
    return this.prenotazioni().byUser(userId);
  }

  private prenotazioni() {
    return new GooglePrenotazioniStore(this.deps.store, this.deps.viewer.tenantId);
  }

  private requireBookingServer() {
    if (this.deps.viewer.grant?.role !== 'google') {
      throw new ForbiddenError("Only Google's booking server reaches its records");
    }
  }

  private async channelActive(link: GoogleMerchantRecord): Promise<boolean> {
    const canali = new CanaleStore(this.deps.store.forTenant(trustedTenantId(link.tenant)));
    return (await canali.findActive(link.channelId)) !== null;
  }

  private async createChannel(): Promise<string> {
    const canali = new CanaleStore(this.deps.store.forTenant(this.deps.viewer.tenantId));
    const record = {
      id: randomUUID(),
      nome: GOOGLE_CHANNEL_NAME,
      origini: [],
      createdAt: this.deps.now().toISOString(),
      deletedAt: null,
    };
    await canali.insert(record);
    return record.id;
  }
}

function duplicateMerchant(merchantId: string): AppError {
  return new AppError('DUPLICATE', `Merchant id ${merchantId} is linked by another restaurant`, {
    field: 'merchantId',
  });
}
