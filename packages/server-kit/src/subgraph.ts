import { readFileSync } from 'node:fs';
import { parse } from 'graphql';
import type { DocumentNode, GraphQLSchema } from 'graphql';
import type { ChannelDirectory, ServiceTokenIssuer, TokenVerifier } from '@coperto/auth';
import type { CloudEvent } from '@coperto/bus';
import type { Cache } from '@coperto/cache';
import type { DocumentStore } from '@coperto/store';
import type { BoundedStats } from '@coperto/metrics';
import type { SubgraphClient } from './subgraph-client.js';

/** What a subgraph needs from the incoming request to build its own context. */
export interface SubgraphRequest {
  /** The caller's `Authorization` header, forwarded unchanged: every subgraph verifies the token itself. */
  authorization: string | undefined;
  requestId?: string | undefined;
}

/**
 * A federated subgraph, independent of how it is reached: in-process (embedded mode, the gateway executes
 * it directly) or over HTTP (distributed mode, `serveSubgraph`). Built by each subgraph's `createXSubgraph(deps)`.
 */
export interface Subgraph<Context = unknown> {
  readonly name: string;
  /** The parsed `schema.graphql`, the source of truth composed into the supergraph. */
  readonly typeDefs: DocumentNode;
  readonly schema: GraphQLSchema;
  /** Verifies the forwarded token and builds the per-request context (viewer, tenant store, loaders). */
  createContext(request: SubgraphRequest): Promise<Context>;
  /** Collections whose records carry outbox events (the hosting process relays them to the bus). */
  readonly outboxCollections: readonly string[];
  /** One-time setup before serving (indexes). Idempotent. */
  init(): Promise<void>;
  /**
   * Durable consumers of bus events this subgraph keeps (e.g. ospiti's counts from the booking events). The
   * hosting process starts them after `init` and before its outbox relay, and stops them before it closes.
   */
  readonly eventConsumers?: readonly EventConsumer[];
  /**
   * Feeds of bus events that every process of the subgraph sees, each all of them (a durable consumer's events are
   * shared out between the instances instead): what keeps a process's own copy of another subgraph's data current.
   * Started with the consumers.
   */
  readonly eventFollowers?: readonly EventFollower[];
  /**
   * Background work beside the requests (a `@coperto/scheduler` poll loop): the hosting process starts each once
   * it serves (its outbox relay running) and stops it before the relay and the store close.
   */
  readonly workers?: readonly SubgraphWorker[];
  /**
   * The subgraph's per-tenant state kept across requests, each with its bound (docs/scaling.md): reported by
   * the hosting process's metrics as `bounded_state_*{structure="<subgraph>_<name>"}`. Names are fixed.
   */
  readonly bounded?: () => Readonly<Record<string, BoundedStats>>;
  /** The subgraph that owns booking channels (canali) tells from its store whether a channel still exists. */
  readonly channelDirectory?: ChannelDirectory;
}

/** A durable consumer a subgraph declares: at least once, so `handle` must be idempotent (dedupe by event id). */
export interface EventConsumer {
  /** Durable name, shared by every instance of the subgraph (each event goes to one of them). */
  readonly durable: string;
  /** Subject pattern (`tenant.*.restaurant.>`); the tenant of an event is its subject's, never its body's. */
  readonly subject: string;
  handle(event: CloudEvent, subject: string): Promise<void>;
}

/** A per-process feed a subgraph declares (see `Subgraph.eventFollowers`): at most once, never retried. */
export interface EventFollower {
  /** Subject pattern (`tenant.*.restaurant.capacity.config.updated`); the tenant is the subject's. */
  readonly subject: string;
  handle(event: CloudEvent, subject: string): void;
  /** The feed ended and was followed again: events may have been missed meanwhile; drop what they keep current. */
  reset(): void;
}

/** A background loop a subgraph runs (see `Subgraph.workers`). */
export interface SubgraphWorker {
  start(): void;
  /** Resolves once the work in hand is finished; idempotent. */
  stop(): Promise<void>;
}

/** Reads and parses a subgraph's `schema.graphql` (the source of truth, also read by supergraph composition). */
export function loadSchemaFile(url: URL): DocumentNode {
  return parse(readFileSync(url, 'utf8'));
}

/** What every subgraph is built from: the same in embedded and distributed mode. */
export interface SubgraphDeps {
  store: DocumentStore;
  cache: Cache;
  verifier: TokenVerifier;
  /** Signs channel keys and guest tokens (the service's own key); required by the subgraphs that issue them. */
  serviceTokens?: ServiceTokenIssuer;
  /** Other subgraphs, through their GraphQL APIs (in-process or HTTP). */
  subgraphs: SubgraphClient;
  /** IANA zone of the restaurant's wall clock (RESTAURANT_TIMEZONE). */
  timeZone: string;
  /** Wakes the outbox relay after a write that stored events. */
  onEventsWritten: () => void;
  now?: () => Date;
}

export type SubgraphFactory = (deps: SubgraphDeps) => Subgraph<unknown>;
