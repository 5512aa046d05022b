import { bool, int, list, loadConfig, oneOf, str, type Config } from '@coperto/config';
import { keySourceIssues, serviceConfigSpec, subgraphUrlsFrom } from '@coperto/server-kit';

/** The subgraphs the gateway federates (names as in supergraph.yaml). */
export const SUBGRAPH_NAMES = ['tavolo', 'sala', 'prenotazione', 'bookings', 'capacity', 'ospiti'] as const;

const gatewayConfigSpec = {
  ...serviceConfigSpec,
  COPERTO_MODE: oneOf(['embedded', 'distributed'] as const, {
    default: 'embedded',
    description: 'embedded: everything in this process; distributed: subgraphs are separate processes',
  }),
  GRAPHQL_TRUSTED_DOCUMENTS: str({
    optional: true,
    description: 'persisted-query manifest file: /graphql then runs only its documents (docs/security.md)',
  }),
  GRAPHQL_EXPLORER: bool({
    optional: true,
    description:
      'GraphiQL for browsers on GET /graphql (default: on in embedded mode, off in distributed mode)',
  }),
  GRAPHQL_INTROSPECTION: bool({
    optional: true,
    description: 'introspection on /graphql (default: as GRAPHQL_EXPLORER)',
  }),
  CORS_ORIGINS: list({
    default: [],
    description: 'origins allowed to call /api, /graphql and /openapi.json from a browser (comma-separated)',
  }),
  SUBGRAPH_FETCH_DEDUPE: bool({
    default: true,
    description: 'identical subgraph fetches of one token in flight at once share one execution',
  }),
  GRAPHQL_READ_CACHE: bool({
    default: true,
    description:
      '/graphql queries that read only rooms and tables are answered from the cache until a write to them',
  }),
  RATE_LIMIT_TENANT_RPS: int({
    default: 500,
    min: 0,
    description: 'requests per second one tenant may make on /api and /graphql (more: 429); 0 = no limit',
  }),
  RATE_LIMIT_TENANT_BURST: int({
    default: 1000,
    min: 0,
    description: 'extra requests a tenant may make above RATE_LIMIT_TENANT_RPS in a burst',
  }),
  SUBSCRIPTION_MAX_SOCKETS_PER_TENANT: int({
    default: 200,
    min: 0,
    description: 'subscription sockets of one tenant on this process (more: close 4430); 0 = no cap',
  }),
  SUBSCRIPTION_MAX_SOCKETS: int({
    default: 5000,
    min: 0,
    description: 'subscription sockets on this process (more: close 4503); 0 = no cap',
  }),
} as const;

export type GatewayConfig = Omit<
  Config<typeof gatewayConfigSpec>,
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
  const loaded = loadConfig(gatewayConfigSpec, env, {
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
