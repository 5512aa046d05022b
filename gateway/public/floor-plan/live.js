// Live updates over the public graphql-ws subscription on /graphql (graphql-ws's own browser build).

const TABLE_FIELDS = `id nome name capacita seats stato status salaId roomId attivo x y width height shape rotation
  lock { deviceId operatorName acquiredAt expiresAt ttl } updatedAt`;
const BOOKING_FIELDS = 'id bookingDate startsAt customerName covers tableIds state durationMinutes updatedAt';

const SUBSCRIPTIONS = {
  table: `subscription { tableStatusChanged { id data { ${TABLE_FIELDS} } } }`,
  bookingCreated: `subscription { bookingCreated { id data { ${BOOKING_FIELDS} } } }`,
  bookingUpdated: `subscription { bookingUpdated { id data { ${BOOKING_FIELDS} } } }`,
  bookingCancelled: `subscription { bookingCancelled { id data { ${BOOKING_FIELDS} } } }`,
  waitlist: 'subscription { waitlistChanged { id type subject } }',
};

/**
 * Follows table status changes, booking events and waitlist changes. `onConnected` runs on every (re)connection, so the page
 * reads what it missed; `onDown` when the socket closes (the client keeps retrying).
 */
export function connectLive({ token, onTable, onBooking, onWaitlist, onConnected, onDown, onError }) {
  const url = `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/graphql`;
  const client = globalThis.graphqlWs.createClient({
    url,
    connectionParams: { authorization: `Bearer ${token}` },
    lazy: false,
    retryAttempts: Number.POSITIVE_INFINITY,
    shouldRetry: () => true,
    on: { connected: () => onConnected(), closed: () => onDown() },
  });
  const follow = (query, pick, handle) =>
    client.subscribe(
      { query },
      {
        next: (result) => {
          if (result.errors) onError(result.errors[0].message);
          else if (result.data) handle(pick(result.data));
        },
        error: (error) => onError(error instanceof Error ? error.message : 'Live updates stopped'),
        complete: () => {},
      },
    );
  const stops = [
    follow(SUBSCRIPTIONS.table, (d) => d.tableStatusChanged.data, onTable),
    follow(SUBSCRIPTIONS.bookingCreated, (d) => d.bookingCreated.data, onBooking),
    follow(SUBSCRIPTIONS.bookingUpdated, (d) => d.bookingUpdated.data, onBooking),
    follow(SUBSCRIPTIONS.bookingCancelled, (d) => d.bookingCancelled.data, onBooking),
    follow(SUBSCRIPTIONS.waitlist, (d) => d.waitlistChanged, onWaitlist),
  ];
  return () => {
    for (const stop of stops) stop();
    void client.dispose();
  };
}
