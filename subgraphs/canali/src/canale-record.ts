/** A booking channel as stored in the `canali` collection. Its key is never stored: it is a signed token. */
export interface CanaleRecord {
  id: string;
  nome: string;
  origini: string[];
  createdAt: string;
  /** Set when the channel is deleted: its key is refused from then on; the record stays for its bookings' sake. */
  deletedAt: string | null;
}

/** The limits of a channel's fields (validation and docs). */
export const CANALE_LIMITS = { nomeMaxLength: 200, maxOrigins: 20, originMaxLength: 200 } as const;
