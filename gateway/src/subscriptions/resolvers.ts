import {
  natsSubject,
  subjectTypeOf,
  WAITLIST_SUBJECT_TYPE,
  type CloudEvent,
  type EventBus,
  type RestaurantEventType,
} from '@coperto/bus';
import { openEventStream, type EventStream } from './event-stream.js';
import type { RecentIdsTally } from './recent-ids.js';
import type { Resolvers } from './generated/resolvers-types.js';
import type { SubscriptionContext } from './subscription-context.js';

export interface SubscriptionResolverDeps {
  bus: EventBus;
  /** Events the bus holds for one subscription group until its executor reads them. */
  busMaxPending?: number;
  /** Where the groups' remembered event ids are counted. */
  recentIds?: RecentIdsTally;
}

/**
 * Each field follows `tenant.<tenantId>.restaurant.<type>` with the tenant of the connection's verified
 * token (never an argument), and yields the CloudEvent itself: its `id, type, time, subject, data` are the
 * event type's fields. A field's stream is opened once per subscription group (subscription-groups.ts), so
 * what it yields may depend on the tenant and the field's arguments only.
 */
export function createSubscriptionResolvers(deps: SubscriptionResolverDeps): Resolvers {
  const follow = (
    context: SubscriptionContext,
    type: RestaurantEventType | typeof WAITLIST_SUBJECT_TYPE,
    accept: (event: CloudEvent) => boolean = () => true,
  ): EventStream => {
    const tenantId = context.tenantId;
    return openEventStream({
      bus: deps.bus,
      subject: natsSubject(tenantId, type),
      onOverflow: context.fellBehind,
      ...(deps.busMaxPending === undefined ? {} : { busMaxPending: deps.busMaxPending }),
      ...(deps.recentIds ? { recentIds: deps.recentIds } : {}),
      // The subject already is the tenant's; checking the envelope too costs nothing.
      accept: (event) =>
        event.tenantid === tenantId && subjectTypeOf(event.type) === subjectTypeOf(type) && accept(event),
    });
  };
  const passThrough = (event: CloudEvent) => event;

  return {
    Query: { _subscriptionsOnly: () => null },
    Subscription: {
      tableStatusChanged: {
        subscribe: (_root, args, context) =>
          follow(context, 'tables.status', (event) => args.salaId == null || salaIdOf(event) === args.salaId),
        resolve: passThrough,
      },
      bookingCreated: {
        subscribe: (_root, _args, context) => follow(context, 'bookings.created'),
        resolve: passThrough,
      },
      bookingUpdated: {
        subscribe: (_root, _args, context) => follow(context, 'bookings.updated'),
        resolve: passThrough,
      },
      bookingCancelled: {
        subscribe: (_root, _args, context) => follow(context, 'bookings.cancelled'),
        resolve: passThrough,
      },
      waitlistChanged: {
        subscribe: (_root, _args, context) => follow(context, WAITLIST_SUBJECT_TYPE),
        resolve: passThrough,
      },
    },
  };
}

function salaIdOf(event: CloudEvent): unknown {
  const data = event.data;
  return typeof data === 'object' && data !== null ? (data as { salaId?: unknown }).salaId : undefined;
}
