import type { Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { GraphQLError, NoSchemaIntrospectionCustomRule, specifiedRules, validate } from 'graphql';
import { useServer } from 'graphql-ws/use/ws';
import { WebSocketServer, type WebSocket } from 'ws';
import type { TokenVerifier, Viewer } from '@coperto/auth';
import type { EventBus } from '@coperto/bus';
import { AppError } from '@coperto/errors';
import { operationLimitErrors, type OperationLimits } from '@coperto/graphql-limits';
import type { Logger } from '@coperto/server-kit';
import { SubscriptionCloseCode, SubscriptionCloseReason } from './close-codes.js';
import {
  createConnectionCaps,
  DEFAULT_CONNECTION_CAPS,
  type ConnectionCapLimits,
} from './connection-caps.js';
import {
  createSocketBudget,
  DEFAULT_SOCKET_LIMITS,
  type SocketBudget,
  type SocketLimits,
} from './socket-budget.js';
import { socketSubscriber } from './socket-subscriber.js';
import { createSubscriptionGroups, type Executor } from './subscription-groups.js';
import { createSubscriptionSchema } from './subscription-schema.js';
import { RECENT_IDS_KEPT, type RecentIdsTally } from './recent-ids.js';
import type { Replayer } from './resume-replay.js';
import type { BoundedStats } from '@coperto/metrics';

/** A cap of 0 is no cap. */
const capOf = (cap: number) => (cap > 0 ? cap : Number.POSITIVE_INFINITY);
import { createWriteBatcher } from './write-batcher.js';
import { onTokenExpiry } from './token-expiry.js';

export interface SubscriptionServerOptions {
  /** The gateway's HTTP server: the WebSocket upgrade is served on the same port. */
  httpServer: Server;
  /** Default `/graphql`. */
  path?: string;
  bus: EventBus;
  verifier: TokenVerifier;
  logger: Logger;
  /** Allow introspection queries over the socket (as GRAPHQL_INTROSPECTION does for HTTP). */
  introspection: boolean;
  /** Largest message a client may send. */
  maxPayloadBytes: number;
  limits?: Partial<SocketLimits>;
  /** Token, depth, alias, directive and cost ceilings of every subscribe message (packages/graphql-limits). */
  operationLimits?: OperationLimits;
  /** Whether a document may run (GRAPHQL_TRUSTED_DOCUMENTS); the refusal's errors otherwise. */
  trusted?: (query: unknown) => readonly GraphQLError[] | undefined;
  /** Sockets per tenant and in total (defaults: connection-caps.ts). */
  caps?: Partial<ConnectionCapLimits>;
  /** How long `close()` waits for clients to answer the close handshake before cutting them. Default 1000. */
  closeGraceMs?: number;
  /** Executes a group's selection per event. Default graphql's `execute` (tests count the calls). */
  execute?: Executor;
  /** Reads what a subscription with `after` missed (the source bus's stored events). Without it, `after` is refused. */
  replay?: Replayer;
  /** Told how each subscription with `after` went (`resumed`, `unknown`, `too-many`, `unavailable`). */
  onResume?: (outcome: string) => void;
}

export interface SubscriptionServer {
  /** Open sockets. */
  connections(): number;
  /** Subscription groups open (each one bus subscription and one execution per event), and their members. */
  groups(): { groups: number; members: number };
  /**
   * The per-tenant state of the server with its bound (docs/scaling.md): `subscription_socket_tenants` (the
   * tenants with an open socket, one entry each, at most the socket cap) and `subscription_groups`.
   */
  bounded(): Record<
    'subscription_socket_tenants' | 'subscription_groups' | 'subscription_recent_ids',
    BoundedStats
  >;
  /** Closes every socket with 1001 "Going away" (cutting those that do not answer), stops accepting. Idempotent. */
  close(): Promise<void>;
}

/** What the server keeps per socket, on graphql-ws's `ctx.extra` (next to `socket` and `request`). */
interface SocketState {
  viewer: Viewer;
  budget: SocketBudget;
  cancelExpiry: () => void;
}

/** The context graphql-ws hands to `subscribe` for one subscription of one socket. */
interface SubscriberContext {
  viewer: Viewer;
  budget: SocketBudget;
  socket: WebSocket;
  transport: Duplex;
  id: string;
}

/**
 * graphql-ws on the gateway's `/graphql` (docs/subscriptions.md): the client sends
 * `connectionParams: { authorization: 'Bearer <jwt>' }`; a missing, bad or expired token closes the socket
 * with 4403, and so does the token expiring later. Every subscription of the socket follows its tenant's
 * NATS subjects. A socket that falls behind (see SocketLimits) is closed with 4429 "Too many pending events".
 * Sockets past the per-tenant or total cap (connection-caps.ts) are closed with 4430 or 4503 (close-codes.ts).
 * graphql-ws keeps the protocol (handshake, subscribe and complete, ping/pong, close codes); the events are
 * fanned out by subscription groups (subscription-groups.ts): one execution and one serialization per event
 * for all the sockets with the same tenant, document and variables, the `next` frames written by the group.
 */
export function createSubscriptionServer(options: SubscriptionServerOptions): SubscriptionServer {
  const limits: SocketLimits = { ...DEFAULT_SOCKET_LIMITS, ...options.limits };
  const logger = options.logger;
  const capLimits: ConnectionCapLimits = { ...DEFAULT_CONNECTION_CAPS, ...options.caps };
  const caps = createConnectionCaps(capLimits);
  const recentIds: RecentIdsTally = { entries: 0, evictions: 0 };
  const schema = createSubscriptionSchema({
    bus: options.bus,
    busMaxPending: limits.maxPendingEvents,
    recentIds,
  });
  const batcher = createWriteBatcher();
  const groups = createSubscriptionGroups({
    schema,
    ...(options.execute ? { execute: options.execute } : {}),
    ...(options.replay ? { replay: options.replay } : {}),
    ...(options.onResume ? { onResume: options.onResume } : {}),
  });
  const wss = new WebSocketServer({
    server: options.httpServer,
    path: options.path ?? '/graphql',
    maxPayload: options.maxPayloadBytes,
  });

  const disposable = useServer<Record<string, unknown>, Partial<SocketState>>(
    {
      schema,
      // Internal error messages never go to clients in close reasons.
      isProd: true,
      ...(options.introspection
        ? {}
        : {
            validate: (s, document) =>
              validate(s, document, [...specifiedRules, NoSchemaIntrospectionCustomRule]),
          }),
      onConnect: async (ctx) => {
        const params = ctx.connectionParams ?? {};
        const authorization = params.authorization ?? params.Authorization;
        const socket = ctx.extra.socket;
        if (caps.full()) {
          logger.warn('subscription connection refused: socket cap reached', { sockets: caps.total });
          socket.close(SubscriptionCloseCode.TooManyConnections, SubscriptionCloseReason.TooManyConnections);
          return false;
        }
        let viewer: Viewer;
        try {
          viewer = await options.verifier.verifyAuthorizationHeader(
            typeof authorization === 'string' ? authorization : undefined,
          );
        } catch (error) {
          if (error instanceof AppError && error.code === 'UNAUTHENTICATED') {
            logger.debug('subscription connection refused', { reason: error.message });
            return false;
          }
          // The verifier could not decide (e.g. signing keys unreachable): the client may retry later.
          logger.error('subscription connection: token verification failed', { error });
          socket.close(1013, 'Try again later');
          return false;
        }
        if (socket.readyState !== socket.OPEN) return false;
        // A channel key or a guest token never subscribes: the tenant's events are staff's (service-rights).
        if (viewer.grant !== undefined) {
          logger.debug('subscription connection refused', { reason: `${viewer.grant.role} token` });
          return false;
        }
        const admission = caps.admit(viewer.tenantId);
        if (!admission.ok) {
          const perTenant = admission.refused === 'tenant';
          logger.warn('subscription connection refused: socket cap reached', {
            tenantId: viewer.tenantId,
            cap: perTenant ? 'tenant' : 'total',
          });
          socket.close(
            perTenant
              ? SubscriptionCloseCode.TooManyTenantConnections
              : SubscriptionCloseCode.TooManyConnections,
            perTenant
              ? SubscriptionCloseReason.TooManyTenantConnections
              : SubscriptionCloseReason.TooManyConnections,
          );
          return false;
        }
        socket.once('close', admission.release);
        ctx.extra.viewer = viewer;
        ctx.extra.budget = createSocketBudget({
          limits,
          bufferedAmount: () => socket.bufferedAmount,
          onExceeded: () => {
            logger.warn('subscription client too slow: disconnected', {
              tenantId: viewer.tenantId,
              code: SubscriptionCloseCode.TooManyPendingEvents,
            });
            socket.close(
              SubscriptionCloseCode.TooManyPendingEvents,
              SubscriptionCloseReason.TooManyPendingEvents,
            );
          },
        });
        ctx.extra.cancelExpiry = onTokenExpiry(viewer.token, () =>
          socket.close(SubscriptionCloseCode.Forbidden, SubscriptionCloseReason.TokenExpired),
        );
        return true;
      },
      onSubscribe: (ctx, _id, payload) => {
        const untrusted = options.trusted?.(payload.query);
        if (untrusted) return [...untrusted];
        const tooComplex = options.operationLimits
          ? operationLimitErrors(schema, payload, options.operationLimits)
          : undefined;
        if (tooComplex) return tooComplex;
        // graphql-ws has already registered this subscription's id.
        if (Object.keys(ctx.subscriptions).length > limits.maxSubscriptions) {
          return [new GraphQLError(`At most ${limits.maxSubscriptions} subscriptions per connection`)];
        }
        return undefined;
      },
      context: (ctx, id): SubscriberContext => {
        const { viewer, budget, socket, request } = ctx.extra;
        // graphql-ws runs operations only after onConnect accepted the socket, which sets both.
        if (!viewer || !budget) throw new Error('Subscription socket without a verified viewer');
        return { viewer, budget, socket, transport: request.socket, id };
      },
      // Subscription operations only (queries go to `execute`): the socket joins its group.
      subscribe: (args) => {
        const subscriber = args.contextValue as SubscriberContext;
        return groups.join(
          {
            tenantId: subscriber.viewer.tenantId,
            document: args.document,
            variableValues: args.variableValues,
            operationName: args.operationName,
          },
          socketSubscriber({ ...subscriber, batcher }),
        );
      },
      onClose: (ctx) => {
        ctx.extra.cancelExpiry?.();
        ctx.extra.budget?.stopAll();
      },
    },
    wss,
  );

  let closing: Promise<void> | undefined;
  return {
    connections: () => wss.clients.size,
    groups: () => ({ groups: groups.size, members: groups.members }),
    bounded: () => {
      const sockets = capOf(capLimits.maxSockets);
      return {
        subscription_socket_tenants: { entries: caps.tenants, capacity: sockets, evictions: 0 },
        subscription_groups: {
          entries: groups.size,
          capacity: sockets * limits.maxSubscriptions,
          evictions: 0,
        },
        subscription_recent_ids: {
          entries: recentIds.entries,
          capacity: sockets * limits.maxSubscriptions * RECENT_IDS_KEPT,
          evictions: recentIds.evictions,
        },
      };
    },
    close: () =>
      (closing ??= (async () => {
        const cut = setTimeout(() => {
          for (const socket of wss.clients) socket.terminate();
        }, options.closeGraceMs ?? 1000);
        try {
          await disposable.dispose();
        } finally {
          clearTimeout(cut);
        }
      })()),
  };
}
