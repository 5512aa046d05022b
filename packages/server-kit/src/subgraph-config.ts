import { loadConfig } from '@coperto/config';
import {
  keySourceIssues,
  serviceConfigSchema,
  subgraphUrlsFrom,
  type ServiceConfig,
} from './service-config.js';

/** Every subgraph name, for SUBGRAPH_<NAME>_URL lookups. */
export const ALL_SUBGRAPHS = [
  'tavolo',
  'sala',
  'prenotazione',
  'bookings',
  'capacity',
  'canali',
  'ospiti',
  'promemoria',
  'garanzie',
  'webhooks',
  'rapporti',
] as const;

/** Configuration of a subgraph process (called from its config.ts with process.env). */
export function readSubgraphConfig(env: Readonly<Record<string, string | undefined>>): {
  config: ServiceConfig;
  subgraphUrls: Record<string, string>;
} {
  return {
    config: loadConfig(serviceConfigSchema, env, { check: keySourceIssues }),
    subgraphUrls: subgraphUrlsFrom(env, ALL_SUBGRAPHS),
  };
}
