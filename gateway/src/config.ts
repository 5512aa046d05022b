import { bool, list, loadConfig, oneOf, type Config } from '@coperto/config';
import { serviceConfigSpec, subgraphUrlsFrom } from '@coperto/server-kit';

/** The subgraphs the gateway federates (names as in supergraph.yaml). */
export const SUBGRAPH_NAMES = ['tavolo', 'sala', 'prenotazione', 'bookings', 'capacity'] as const;

const gatewayConfigSpec = {
  ...serviceConfigSpec,
  COPERTO_MODE: oneOf(['embedded', 'distributed'] as const, {
    default: 'embedded',
    description: 'embedded: everything in this process; distributed: subgraphs are separate processes',
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
  const loaded = loadConfig(gatewayConfigSpec, env);
  const explorer = loaded.GRAPHQL_EXPLORER ?? loaded.COPERTO_MODE === 'embedded';
  return Object.freeze({
    ...loaded,
    GRAPHQL_EXPLORER: explorer,
    GRAPHQL_INTROSPECTION: loaded.GRAPHQL_INTROSPECTION ?? explorer,
    subgraphUrls: subgraphUrlsFrom(env, SUBGRAPH_NAMES),
  });
}
