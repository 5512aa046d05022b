/**
 * The bench's own dependencies live in bench/node_modules, which the workspace typecheck (the root tsconfig
 * includes bench/) never has: they are loaded by name at run time, resolved from this file, and typed here by
 * the few members the bench uses.
 */
import type { EventEmitter } from 'node:events';

async function load<T>(name: string): Promise<T> {
  const mod = (await import(name)) as { default?: unknown };
  return (mod.default ?? mod) as T;
}

async function loadNamed<T>(name: string): Promise<T> {
  return (await import(name)) as T;
}

// autocannon ------------------------------------------------------------------------------------------------

export interface AutocannonRequest {
  method?: string;
  path?: string;
  headers?: Record<string, string>;
  body?: string;
  setupRequest?: (req: AutocannonRequest) => AutocannonRequest;
}

export interface AutocannonOptions {
  /** Several: connections spread over them round-robin. */
  url: string | string[];
  connections: number;
  /** Requests per second over all connections. */
  overallRate?: number;
  pipelining?: number;
  duration: number;
  maxOverallRequests?: number;
  timeout?: number;
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  requests?: AutocannonRequest[];
  setupClient?: (client: unknown) => void;
}

export interface AutocannonResult {
  requests: { average: number; total: number };
  latency: { p50: number; p99: number; average: number };
  duration: number;
  errors: number;
  timeouts: number;
  non2xx: number;
  '2xx': number;
}

export interface AutocannonInstance extends EventEmitter, PromiseLike<AutocannonResult> {
  stop(): void;
}

export type Autocannon = (options: AutocannonOptions) => AutocannonInstance;

export const loadAutocannon = () => load<Autocannon>('autocannon');

// jose ------------------------------------------------------------------------------------------------------

export interface SignJWTBuilder {
  setProtectedHeader(header: { alg: string; typ?: string }): SignJWTBuilder;
  setIssuedAt(at?: number): SignJWTBuilder;
  setSubject(subject: string): SignJWTBuilder;
  setExpirationTime(expiry: string | number): SignJWTBuilder;
  sign(key: Uint8Array): Promise<string>;
}

export const loadJose = () =>
  loadNamed<{ SignJWT: new (claims: Record<string, unknown>) => SignJWTBuilder }>('jose');

// mongodb ---------------------------------------------------------------------------------------------------

export type MongoDocument = Record<string, unknown>;

export interface MongoCollection {
  insertOne(doc: MongoDocument): Promise<unknown>;
  findOne(filter: MongoDocument, options?: MongoDocument): Promise<MongoDocument | null>;
  indexes(): Promise<Array<{ key: MongoDocument; name?: string; unique?: boolean; sparse?: boolean }>>;
  createIndex(key: MongoDocument, options?: MongoDocument): Promise<string>;
}

export interface MongoDb {
  collection(name: string): MongoCollection;
  dropDatabase(): Promise<unknown>;
}

export interface MongoClient {
  connect(): Promise<MongoClient>;
  db(name: string): MongoDb;
  close(): Promise<void>;
}

export const loadMongo = () =>
  loadNamed<{ MongoClient: new (url: string, options?: MongoDocument) => MongoClient }>('mongodb');

// ws and graphql-ws -----------------------------------------------------------------------------------------

export interface GraphQLWsSink {
  next(value: { data?: unknown; errors?: unknown[] }): void;
  error(error: unknown): void;
  complete(): void;
}

export interface GraphQLWsClient {
  subscribe(payload: { query: string; variables?: Record<string, unknown> }, sink: GraphQLWsSink): () => void;
  on(event: 'closed' | 'connected' | 'error', listener: (arg: unknown) => void): () => void;
  dispose(): void | Promise<void>;
}

export interface GraphQLWsClientOptions {
  url: string;
  webSocketImpl: unknown;
  connectionParams: Record<string, unknown>;
  lazy: boolean;
  retryAttempts: number;
}

export const loadGraphQLWs = () =>
  loadNamed<{ createClient: (options: GraphQLWsClientOptions) => GraphQLWsClient }>('graphql-ws/client');

export const loadWebSocket = async () => (await loadNamed<{ WebSocket: unknown }>('ws')).WebSocket;

// @sinonjs/fake-timers (scenario 8's virtual clock, loaded inside the service process) -----------------------

export interface FakeClock {
  now: number;
  setSystemTime(now: number): void;
}

export const loadFakeTimers = () =>
  load<{ install(config: { now: number; toFake: string[] }): FakeClock }>('@sinonjs/fake-timers');

/** The few members of a `ws` client socket the push load's counting sockets use. */
export interface RawWebSocket {
  on(event: 'open', listener: () => void): void;
  on(event: 'message', listener: (data: Buffer, isBinary: boolean) => void): void;
  on(event: 'close', listener: (code: number) => void): void;
  on(event: 'error', listener: (error: Error) => void): void;
  send(data: string): void;
  terminate(): void;
}

export const loadRawWebSocket = async () =>
  (await loadNamed<{ WebSocket: new (url: string, protocol: string) => RawWebSocket }>('ws')).WebSocket;

// standardwebhooks (scenarios 15 and 16: the receivers verify every delivery with it) -------------------------

export interface StandardWebhook {
  /** The parsed body when a signature matches and the timestamp is recent; throws otherwise. */
  verify(payload: string, headers: Record<string, string>): unknown;
}

export const loadStandardWebhooks = () =>
  loadNamed<{ Webhook: new (secret: string) => StandardWebhook }>('standardwebhooks');
