/** The jobs the load worker runs (load-worker.ts) and what it answers. Plain data: they cross an IPC channel. */

/**
 * One request shape. In `path`, `body` and header values, `{{n}}` is replaced by a counter unique within the
 * job and `{{name}}` by `choices[name][n % length]` (e.g. a table id), so requests can differ one from another.
 */
export interface RequestSpec {
  method: string;
  path: string;
  headers?: Record<string, string>;
  body?: string;
  choices?: Record<string, string[]>;
}

export interface HttpJob {
  kind: 'http';
  /** Several: the connections are spread over them round-robin (e.g. two gateway instances). */
  baseUrl: string | readonly string[];
  /** Each connection cycles through these in order. */
  requests: RequestSpec[];
  connections: number;
  seconds: number;
  /** Upper bound on requests, whatever the duration. */
  maxRequests: number;
  /** Requests per second over all connections (each connection paced); closed loop at full speed when absent. */
  overallRate?: number;
}

export interface MongoInsertJob {
  kind: 'mongo-insert';
  url: string;
  database: string;
  collection: string;
  /** The document; `_id`, `id` and `codice` get fresh unique values on every insert. */
  doc: Record<string, unknown>;
  concurrency: number;
  seconds: number;
  maxRequests: number;
}

export interface PushJob {
  kind: 'push';
  baseUrl: string;
  wsUrl: string;
  token: string;
  tableIds: string[];
  sockets: number;
  /** Status changes per second (open loop). */
  rate: number;
  seconds: number;
  rounds: number;
  /** A first round at full rate whose figures are dropped. */
  warmupSeconds: number;
  /**
   * How the timed sockets read their frames: `raw` times a frame when its bytes arrive (a byte search finds its
   * orderId), `graphql-ws` when a graphql-ws client has parsed it and called the subscription's sink.
   */
  timing: 'raw' | 'graphql-ws';
}

export type Job = HttpJob | MongoInsertJob | PushJob;

/** Throughput and latency of a closed-loop run (2xx / successful operations only in the latencies). */
export interface LoadResult {
  /** Successful requests per second. */
  rps: number;
  p50: number;
  p99: number;
  mean: number;
  ok: number;
  /** Responses outside 2xx, by status. */
  failures: Record<string, number>;
  /** Connection errors and timeouts. */
  errors: number;
  seconds: number;
}

export interface PushRound {
  putP50: number;
  putP99: number;
  pushP50: number;
  pushP99: number;
  /**
   * Per event, the latency at the first timed socket it reached: the server's push without the fan-out's spread
   * over the sockets and the load process's reading of the other frames.
   */
  firstP50: number;
  firstP99: number;
  /** PUTs sent, and acknowledged with 200. */
  sent: number;
  acked: number;
  /** Status changes per second actually sent. */
  rate: number;
  /** acked × subscribed sockets, and the events that arrived (within 5 s after the last PUT). */
  expected: number;
  received: number;
}

export interface PushResult {
  subscribed: number;
  /** Live sockets whose events were timed (the others only counted them). */
  measured: number;
  rounds: PushRound[];
  /** Sockets the server closed during the run, by close code. */
  closed: Record<string, number>;
}

export type JobResult = LoadResult | PushResult;
