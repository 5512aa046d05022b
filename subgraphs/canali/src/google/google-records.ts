import { trustedTenantId } from '@coperto/auth';

/**
 * The partition of canali's store that maps Google's merchant ids (and Google's users) to restaurants. Google names
 * no tenant: the booking server finds it here. The id cannot be a token's tenant (`:` is not allowed in one), so
 * no caller reaches this partition but canali's Google code.
 */
export const GOOGLE_DIRECTORY_TENANT = trustedTenantId('coperto:google');

/** A restaurant's link to Reserve with Google (collection `google_merchants`, directory partition). */
export interface GoogleMerchantRecord {
  /** Google's merchant id, as the restaurant linked it: unique across restaurants. */
  id: string;
  /** The tenant that linked it (`tenantId` is the store's own field, the directory's). */
  tenant: string;
  /** The booking channel Google's bookings are made through (a channel of that tenant, origine `google`). */
  channelId: string;
  linkedAt: string;
}

/** Google user `userId` has booked with merchant `merchantId` (collection `google_users`, directory partition). */
export interface GoogleUserRecord {
  /** `merchantId` and `userId` joined by a newline (neither holds one). */
  id: string;
  userId: string;
  merchantId: string;
}

/**
 * One `idempotency_token` of CreateBooking (collection `google_prenotazioni`, the restaurant's partition): claimed by
 * a unique insert before the booking is made, then completed with the answer given, which every repeat gets.
 */
export interface GooglePrenotazioneRecord {
  /** The idempotency token. */
  id: string;
  state: 'pending' | 'done';
  claimedAt: string;
  /** The CreateBooking answer, as JSON text (when done). */
  answer: string | null;
  /** The booking made (when done and one was made). */
  bookingId: string | null;
  userId: string | null;
}

export const GOOGLE_LIMITS = { merchantIdMaxLength: 128, tokenMaxLength: 256, userIdMaxLength: 256 } as const;

/** A pending claim older than this was abandoned (its process died): a repeat may take it over. */
export const GOOGLE_CLAIM_STALE_MS = 30_000;
