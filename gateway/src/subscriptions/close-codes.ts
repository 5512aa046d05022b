/**
 * WebSocket close codes of the subscription server, next to graphql-ws's own (4400 bad message, 4401
 * subscribe before the handshake, 4408 no `connection_init` within 3 s, 4409 duplicate subscription id).
 * The 44xx range mirrors HTTP statuses, as graphql-ws does.
 */
export const SubscriptionCloseCode = {
  /** Missing, malformed, badly signed or expired token (graphql-ws closes with it when onConnect refuses). */
  Forbidden: 4403,
  /**
   * The client fell too far behind (too many undelivered events or too many bytes waiting in the socket).
   * graphql-ws also sends 4429 for a second `connection_init`; the reason tells them apart. The graphql-ws
   * client does not retry after 4429: the application reconnects (and refetches what it missed) itself.
   */
  TooManyPendingEvents: 4429,
  /** The tenant of the token already holds SUBSCRIPTION_MAX_SOCKETS_PER_TENANT sockets on this gateway process. */
  TooManyTenantConnections: 4430,
  /** This gateway process already holds SUBSCRIPTION_MAX_SOCKETS sockets: retry later (another instance may have room). */
  TooManyConnections: 4503,
  /** The server is shutting down (graphql-ws's dispose). */
  GoingAway: 1001,
} as const;

/** Close reasons sent with the codes above. */
export const SubscriptionCloseReason = {
  Forbidden: 'Forbidden',
  TokenExpired: 'Forbidden: token expired',
  TooManyPendingEvents: 'Too many pending events',
  TooManyTenantConnections: 'Too many connections for this tenant',
  TooManyConnections: 'Too many connections',
} as const;
