import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { composeServices } from '@apollo/composition';
import { parse } from 'graphql';
import { parse as parseYaml } from 'yaml';

export interface SupergraphConfig {
  subgraphs: Record<string, { routing_url: string; schema: { file: string } }>;
}

export function readSupergraphConfig(path: string): SupergraphConfig {
  const config = parseYaml(readFileSync(path, 'utf8')) as SupergraphConfig;
  if (!config?.subgraphs || Object.keys(config.subgraphs).length === 0) {
    throw new Error(`${path} lists no subgraphs`);
  }
  return config;
}

/**
 * Composes the supergraph from the subgraphs' schema files named in `supergraph.yaml` (Rover's format), with
 * @apollo/composition (Rover cannot run offline). Throws with every composition error.
 */
export function composeSupergraph(configPath: string): string {
  const config = readSupergraphConfig(configPath);
  const result = composeServices(
    Object.entries(config.subgraphs).map(([name, subgraph]) => ({
      name,
      url: subgraph.routing_url,
      typeDefs: parse(readFileSync(resolve(dirname(configPath), subgraph.schema.file), 'utf8')),
    })),
  );
  if (result.errors) {
    throw new Error(
      `Supergraph composition failed:\n${result.errors.map((e) => `- ${e.message}`).join('\n')}`,
    );
  }
  return result.supergraphSdl;
}
