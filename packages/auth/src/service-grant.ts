/**
 * Tokens the service issues itself (channel keys, guest tokens): their issuer, their roles and what they grant.
 * They are signed with the service's own key (service-token-key.ts), never with the staff key, and told apart
 * from staff tokens by this issuer (combined-verifier.ts).
 */
export const SERVICE_TOKEN_ISSUER = 'urn:coperto:service';

/** A booking channel's key: may search availability, hold options and book (docs/channels.md). */
export const CHANNEL_ROLE = 'channel';
/** One booking's guest: may read, confirm, change and cancel that booking only. */
export const GUEST_ROLE = 'guest';
/**
 * Google's booking server inside the gateway (docs/integrations.md): minted by the gateway for itself after Google's
 * HTTP Basic credentials, never handed out; it reaches only canali's Google records (merchant links, idempotency).
 */
export const GOOGLE_ROLE = 'google';

/**
 * The service itself acting on one booking's guarantee: the gateway hands over a Stripe event it verified, and
 * garanzie moves that booking when its guarantee is in place (docs/payments.md). Never given to anyone outside.
 */
export const PAYMENTS_ROLE = 'payments';

/**
 * The service itself erasing guests' data for one tenant (docs/guests.md): ospiti's retention and the records
 * of an erased guest that reached it after the erasure. Minted by ospiti for itself, never handed out; it may
 * only ask prenotazione's `cancellaDatiOspite`.
 */
export const PRIVACY_ROLE = 'privacy';

export const SERVICE_ROLES = [CHANNEL_ROLE, GUEST_ROLE, GOOGLE_ROLE, PAYMENTS_ROLE, PRIVACY_ROLE] as const;
export type ServiceRole = (typeof SERVICE_ROLES)[number];

export function isServiceRole(value: unknown): value is ServiceRole {
  return (SERVICE_ROLES as readonly unknown[]).includes(value);
}

/** What a service token grants, on `viewer.grant`; staff viewers have none. */
export type ServiceGrant =
  | {
      readonly role: typeof CHANNEL_ROLE;
      readonly channelId: string;
      readonly channelName: string;
      /** Where the channel's bookings say they came from: `online`, or `google` for Reserve with Google's channel. */
      readonly origine: ChannelOrigine;
    }
  | { readonly role: typeof GUEST_ROLE; readonly bookingId: string }
  | { readonly role: typeof GOOGLE_ROLE }
  | { readonly role: typeof PAYMENTS_ROLE; readonly bookingId: string }
  | { readonly role: typeof PRIVACY_ROLE };

/** The `origine` of a channel's bookings (a channel key's `origine` claim; absent = `online`). */
export const CHANNEL_ORIGINI = ['online', 'google'] as const;
export type ChannelOrigine = (typeof CHANNEL_ORIGINI)[number];
