import { bool, int, loadConfig, oneOf, str, type Config } from '@coperto/config';
import { keySourceIssues, serviceConfigSpec, subgraphUrlsFrom } from '@coperto/server-kit';

/** The subgraphs the gateway federates (names as in supergraph.yaml). */
export const SUBGRAPH_NAMES = ['tavolo', 'sala', 'prenotazione', 'bookings', 'capacity'] as const;

const gatewayConfigSpec = {
  ...serviceConfigSpec,
  COPERTO_MODE: oneOf(['embedded', 'distributed'] as const, {
    default: 'embedded',
    description: 'embedded: everything in this process; distributed: subgraphs are separate processes',
  }),
  GRAPHQL_INTROSPECTION: bool({ default: false }),
  GRAPHQL_TRUSTED_DOCUMENTS: str({
    optional: true,
    description: 'persisted-query manifest file: /graphql then runs only its documents (docs/security.md)',
  }),
  SUBGRAPH_FETCH_DEDUPE: bool({
    default: true,
    description: 'identical subgraph fetches of one token in flight at once share one execution',
  }),
  RATE_LIMIT_TENANT_RPS: int({
    default: 100_000,
    min: 0,
    description: 'requests per second one tenant may make on /api and /graphql (more: 429); 0 = no limit',
  }),
  RATE_LIMIT_TENANT_BURST: int({
    default: 100_000,
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

export type GatewayConfig = Config<typeof gatewayConfigSpec> & {
  /** SUBGRAPH_<NAME>_URL overrides of supergraph.yaml's routing URLs (distributed mode). */
  subgraphUrls: Readonly<Record<string, string>>;
};

/** The only place the gateway process reads its environment. Reports every bad variable at once. */
export function readGatewayConfig(
  env: Readonly<Record<string, string | undefined>> = process.env,
): GatewayConfig {
  return Object.freeze({
    ...loadConfig(gatewayConfigSpec, env, {
      check: (config) => (config.COPERTO_MODE === 'distributed' ? keySourceIssues(config) : []),
    }),
    subgraphUrls: subgraphUrlsFrom(env, SUBGRAPH_NAMES),
  });
}
