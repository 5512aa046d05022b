// Live updates over the public graphql-ws subscription on /graphql (graphql-ws's own browser build).

const TABLE_FIELDS = `id nome name capacita seats stato status salaId roomId attivo x y width height shape rotation
  lock { deviceId operatorName acquiredAt expiresAt ttl } updatedAt`;
const BOOKING_FIELDS = 'id bookingDate startsAt customerName covers tableIds state durationMinutes updatedAt';

/** Each field resumes after the last event it received (`after`, docs/subscriptions.md "Resuming"). */
const FOLLOWED = [
  { kind: 'tables', field: 'tableStatusChanged', selection: `id data { ${TABLE_FIELDS} }` },
  { kind: 'bookings', field: 'bookingCreated', selection: `id data { ${BOOKING_FIELDS} }` },
  { kind: 'bookings', field: 'bookingUpdated', selection: `id data { ${BOOKING_FIELDS} }` },
  { kind: 'bookings', field: 'bookingCancelled', selection: `id data { ${BOOKING_FIELDS} }` },
  { kind: 'waitlist', field: 'waitlistChanged', selection: 'id type subject' },
];

/** The error code of a subscription that cannot resume: read the state again, then follow live. */
const RELOAD_REQUIRED = 'RELOAD_REQUIRED';

/**
 * Follows table status changes, booking events and waitlist changes. After the socket drops, each subscription
 * resumes after the last event it received, so the events of the gap arrive (in order, once) through the usual
 * handlers. `onReload(kind)` ('tables', 'bookings', 'waitlist') asks the page to read that part again over HTTP:
 * on the first connection, on a reconnection for a subscription that had received nothing yet, and when the
 * server cannot resume one (RELOAD_REQUIRED: too long away). `onConnected` and `onDown` follow the socket (the
 * client keeps retrying).
 */
export function connectLive({
  token,
  onTable,
  onBooking,
  onWaitlist,
  onReload,
  onConnected,
  onDown,
  onError,
}) {
  const url = `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/graphql`;
  const client = globalThis.graphqlWs.createClient({
    url,
    connectionParams: { authorization: `Bearer ${token}` },
    lazy: false,
    retryAttempts: Number.POSITIVE_INFINITY,
    shouldRetry: () => true,
    on: { connected: (_socket, _payload, retrying) => connected(retrying), closed: () => onDown() },
  });
  const handlers = { tables: onTable, bookings: onBooking, waitlist: onWaitlist };
  const follows = FOLLOWED.map((spec) => ({ spec, payload: null, stop: () => {} }));

  // graphql-ws sends a subscription's payload again on every reconnection, reading it then: keeping the last
  // event id in its variables is what makes the subscription resume there.
  const subscribe = (follow) => {
    const { kind, field, selection } = follow.spec;
    follow.payload = {
      query: `subscription ($after: ID) { ${field}(after: $after) { ${selection} } }`,
      variables: { after: null },
    };
    const payload = follow.payload;
    follow.stop = client.subscribe(payload, {
      next: (result) => {
        const code = result.errors?.[0]?.extensions?.code;
        if (code === RELOAD_REQUIRED) {
          onReload(kind);
          // The server completes it: follow live again (after the state was read).
          queueMicrotask(() => subscribe(follow));
        } else if (result.errors) onError(result.errors[0].message);
        else if (result.data) {
          const event = result.data[field];
          payload.variables.after = event.id;
          handlers[kind](kind === 'waitlist' ? event : event.data);
        }
      },
      error: (error) => onError(error instanceof Error ? error.message : 'Live updates stopped'),
      complete: () => {},
    });
  };

  const connected = (retrying) => {
    onConnected();
    const stale = new Set(
      follows.filter((f) => !retrying || f.payload.variables.after === null).map((f) => f.spec.kind),
    );
    for (const kind of stale) onReload(kind);
  };

  for (const follow of follows) subscribe(follow);
  return () => {
    for (const follow of follows) follow.stop();
    void client.dispose();
  };
}
