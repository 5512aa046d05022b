import { envBoolean, envList, loadConfig } from '@coperto/config';
import { ALL_SUBGRAPHS, keySourceIssues, serviceConfigSchema, subgraphUrlsFrom } from '@coperto/server-kit';
import { mailSettingsShape } from '@coperto/subgraph-promemoria';
import { stripeSettingsShape } from '@coperto/subgraph-garanzie';
import ipaddr from 'ipaddr.js';
import { z } from 'zod';
import { DEFAULT_REPLAY_BOUNDS } from './subscriptions/replay-bounds.js';

/** The subgraphs the gateway federates (names as in supergraph.yaml): every subgraph, one list (server-kit). */
export const SUBGRAPH_NAMES = ALL_SUBGRAPHS;

/** A count of the environment: a whole number, 0 or more. */
const count = z.coerce.number().int().min(0);

/** Names proxy-addr (fastify's `trustProxy`) knows for the ranges of their kind. */
const PROXY_RANGE_NAMES = ['loopback', 'linklocal', 'uniquelocal'];

/** One entry of TRUSTED_PROXIES: an IP address, a CIDR range, or one of PROXY_RANGE_NAMES. */
const trustedProxy = z
  .string()
  .refine(
    (entry) => PROXY_RANGE_NAMES.includes(entry) || ipaddr.isValid(entry) || ipaddr.isValidCIDR(entry),
    `expected IP addresses, CIDR ranges or ${PROXY_RANGE_NAMES.join(', ')}`,
  );

const gatewayConfigSchema = serviceConfigSchema.extend({
  /** Embedded mode hosts promemoria: its SMTP server, sender and the guests' link base (docs/reminders.md). */
  ...mailSettingsShape,
  /** Embedded mode hosts garanzie: its Stripe key and API base (docs/payments.md). */
  ...stripeSettingsShape,
  /** Stripe's webhook signing secret (whsec_…): POST /webhooks/stripe verifies each event with it; unset = 503. */
  STRIPE_WEBHOOK_SECRET: z.string().min(1).optional(),
  /** embedded: everything in this process; distributed: subgraphs are separate processes. */
  COPERTO_MODE: z.enum(['embedded', 'distributed']).default('embedded'),
  /** Persisted-query manifest file: /graphql then runs only its documents (docs/security.md). */
  GRAPHQL_TRUSTED_DOCUMENTS: z.string().optional(),
  /** GraphiQL for browsers on GET /graphql (default: on in embedded mode, off in distributed mode). */
  GRAPHQL_EXPLORER: envBoolean.optional(),
  /** Introspection on /graphql (default: as GRAPHQL_EXPLORER). */
  GRAPHQL_INTROSPECTION: envBoolean.optional(),
  /** Origins allowed to call /api, /graphql and /openapi.json from a browser (comma-separated). */
  CORS_ORIGINS: envList.default(Object.freeze([])),
  /** Identical subgraph fetches of one token in flight at once share one execution. */
  SUBGRAPH_FETCH_DEDUPE: envBoolean.default(true),
  /** /graphql queries that read only rooms and tables are answered from the cache until a write to them. */
  GRAPHQL_READ_CACHE: envBoolean.default(true),
  /** Requests per second one tenant may make on /api and /graphql (more: 429); 0 = no limit. */
  RATE_LIMIT_TENANT_RPS: count.default(500),
  /** Extra requests a tenant may make above RATE_LIMIT_TENANT_RPS in a burst. */
  RATE_LIMIT_TENANT_BURST: count.default(1000),
  /** Requests per second one booking channel key may make, all its guests together (more: 429); 0 = no limit. */
  RATE_LIMIT_CHANNEL_RPS: count.default(100),
  /** Extra requests a channel key may make above RATE_LIMIT_CHANNEL_RPS in a burst. */
  RATE_LIMIT_CHANNEL_BURST: count.default(500),
  /** Requests per second one client address may make with one channel key (more: 429); 0 = no limit. */
  RATE_LIMIT_CHANNEL_ADDRESS_RPS: count.default(10),
  /** Extra requests one client address may make with one channel key above that in a burst. */
  RATE_LIMIT_CHANNEL_ADDRESS_BURST: count.default(200),
  /** Requests per second the guest tokens of one booking may make together (more: 429); 0 = no limit. */
  RATE_LIMIT_GUEST_RPS: count.default(10),
  /** Extra requests one booking's guest tokens may make above RATE_LIMIT_GUEST_RPS in a burst. */
  RATE_LIMIT_GUEST_BURST: count.default(200),
  /**
   * Reverse proxies (addresses, CIDR ranges, or `loopback`, `linklocal`, `uniquelocal`) whose `X-Forwarded-For`
   * names the client: the client address of the channel budgets. Empty = the socket's peer is the client.
   */
  TRUSTED_PROXIES: envList.pipe(z.array(trustedProxy).readonly()).default(Object.freeze([])),
  /** Subscription sockets of one tenant on this process (more: close 4430); 0 = no cap. */
  SUBSCRIPTION_MAX_SOCKETS_PER_TENANT: count.default(200),
  /** Subscription sockets on this process (more: close 4503); 0 = no cap. */
  SUBSCRIPTION_MAX_SOCKETS: count.default(5000),
  /** Reserve with Google: the partner credentials Google's booking-server calls carry (HTTP Basic); unset = 401. */
  GOOGLE_BOOKING_USER: z.string().min(1).optional(),
  GOOGLE_BOOKING_PASSWORD: z.string().min(1).optional(),
  /** A subscription with `after` resumes from an event at most this old (ms; older: RELOAD_REQUIRED). */
  SUBSCRIPTION_REPLAY_WINDOW_MS: count.default(DEFAULT_REPLAY_BOUNDS.windowMs),
  /** At most this many missed events are replayed to one subscription (more: RELOAD_REQUIRED). */
  SUBSCRIPTION_REPLAY_MAX_EVENTS: count.default(DEFAULT_REPLAY_BOUNDS.maxEvents),
  /** Embedded mode, the webhooks subgraph hosted here: endpoints may be private addresses (tests only). */
  WEBHOOKS_ALLOW_PRIVATE: envBoolean.default(false),
});

export type GatewayConfig = Omit<
  z.output<typeof gatewayConfigSchema>,
  'GRAPHQL_EXPLORER' | 'GRAPHQL_INTROSPECTION'
> & {
  GRAPHQL_EXPLORER: boolean;
  GRAPHQL_INTROSPECTION: boolean;
  /** SUBGRAPH_<NAME>_URL overrides of supergraph.yaml's routing URLs (distributed mode). */
  subgraphUrls: Readonly<Record<string, string>>;
};

/** The only place the gateway process reads its environment. Reports every bad variable at once. */
export function readGatewayConfig(
  env: Readonly<Record<string, string | undefined>> = process.env,
): GatewayConfig {
  const loaded = loadConfig(gatewayConfigSchema, env, {
    check: (config) => (config.COPERTO_MODE === 'distributed' ? keySourceIssues(config) : []),
  });
  const explorer = loaded.GRAPHQL_EXPLORER ?? loaded.COPERTO_MODE === 'embedded';
  return Object.freeze({
    ...loaded,
    GRAPHQL_EXPLORER: explorer,
    GRAPHQL_INTROSPECTION: loaded.GRAPHQL_INTROSPECTION ?? explorer,
    subgraphUrls: subgraphUrlsFrom(env, SUBGRAPH_NAMES),
  });
}
