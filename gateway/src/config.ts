import { bool, loadConfig, oneOf, str, type Config } from '@coperto/config';
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
