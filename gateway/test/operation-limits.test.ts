import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { buildSchema, parse, type GraphQLSchema } from 'graphql';
import { composeServices } from '@apollo/composition';
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_OPERATION_LIMITS,
  measureOperation,
  operationLimitErrors,
  type OperationLimits,
} from '@coperto/graphql-limits';
import { operations } from '../src/rest/operations.js';
import { readSupergraphConfig } from '../src/graphql/supergraph.js';
import { trustedDocumentsManifest } from '../src/graphql/trusted-documents-manifest.js';

const root = resolve(import.meta.dirname, '../..');

/** The API schema clients query (the supergraph without federation internals). */
function apiSchema(): GraphQLSchema {
  const configPath = resolve(root, 'supergraph.yaml');
  const config = readSupergraphConfig(configPath);
  const result = composeServices(
    Object.entries(config.subgraphs).map(([name, subgraph]) => ({
      name,
      url: subgraph.routing_url,
      typeDefs: parse(readFileSync(resolve(dirname(configPath), subgraph.schema.file), 'utf8')),
    })),
  );
  if (result.errors) throw new Error(result.errors.map((e) => e.message).join('\n'));
  return result.schema.toAPISchema().toGraphQLJSSchema();
}

const schema = apiSchema();
/** Every REST operation must stay within this share of each default limit. */
const MARGIN = 2;

describe('operation limits and the REST facade', () => {
  it.each(Object.entries(operations))('%s is within every default limit with a margin of 2×', (_, source) => {
    const measures = measureOperation(schema, source);
    for (const [limit, value] of Object.entries(measures)) {
      expect(value * MARGIN, `${limit}: ${value}`).toBeLessThanOrEqual(
        DEFAULT_OPERATION_LIMITS[limit as keyof OperationLimits],
      );
    }
    expect(operationLimitErrors(schema, { query: source }, DEFAULT_OPERATION_LIMITS)).toBeUndefined();
  });
});

describe('operation limits refuse', () => {
  const refusal = (query: string, limits: OperationLimits = DEFAULT_OPERATION_LIMITS) =>
    operationLimitErrors(schema, { query }, limits)?.map((e) => e.extensions.details);

  it('a document of more tokens than allowed, without counting the rest', () => {
    const aliases = Array.from({ length: 16_000 }, (_, i) => `a${i}:id`).join(' ');
    expect(refusal(`{tavoli{${aliases}}}`)).toEqual([{ limit: 'tokens', max: 2000 }]);
  });

  it('a query nested 20 levels through Sala.tavoli ↔ Tavolo.sala, naming the depth found (leaves count)', () => {
    const nested = `{ sale { ${'tavoli { sala { '.repeat(10)}id${' } }'.repeat(10)} } }`;
    expect(refusal(nested)).toEqual([
      { limit: 'depth', max: 10, actual: 22 },
      { limit: 'cost', max: 20_000, actual: expect.any(Number) },
    ]);
  });

  it('too many aliases and too many directives', () => {
    const aliases = Array.from({ length: 31 }, (_, i) => `a${i}: id`).join(' ');
    expect(refusal(`{ tavoli { ${aliases} } }`)).toEqual([{ limit: 'aliases', max: 30, actual: 31 }]);
    const directives = Array.from({ length: 21 }, () => '@include(if: true)').join(' ');
    expect(refusal(`{ tavoli { id ${directives} } }`)).toEqual([
      { limit: 'directives', max: 20, actual: 21 },
    ]);
  });

  it('a shallow query whose list fields multiply: cost, counted per list level', () => {
    const cyclic = `{ sale { tavoli { sala { tavoli { sala { tavoli { sala { tavoli { id } } } } } } } } }`;
    const measures = measureOperation(schema, cyclic);
    expect(measures.maxDepth).toBeLessThanOrEqual(DEFAULT_OPERATION_LIMITS.maxDepth);
    expect(refusal(cyclic)).toEqual([{ limit: 'cost', max: 20_000, actual: measures.maxCost }]);
    expect(measures.maxCost).toBe(222_210);
  });
});

describe('operation limits and every trusted (REST and documented) document', () => {
  const subscriptionSchema = buildSchema(
    readFileSync(resolve(root, 'gateway/src/subscriptions/generated/schema.graphql'), 'utf8'),
  );
  it.each(trustedDocumentsManifest(root).operations.map((o) => [o.name, o] as const))(
    '%s is within every default limit with a margin of 2×',
    (_, operation) => {
      const target = operation.type === 'subscription' ? subscriptionSchema : schema;
      for (const [limit, value] of Object.entries(measureOperation(target, operation.body))) {
        expect(value * MARGIN, `${limit}: ${value}`).toBeLessThanOrEqual(
          DEFAULT_OPERATION_LIMITS[limit as keyof OperationLimits],
        );
      }
    },
  );
});

describe('operation limits and the documented subscriptions', () => {
  const subscriptions = buildSchema(
    readFileSync(resolve(root, 'gateway/src/subscriptions/generated/schema.graphql'), 'utf8'),
  );
  const documented = [
    ...readFileSync(resolve(root, 'docs/subscriptions.md'), 'utf8').matchAll(/query: `([^`]+)`/g),
  ].map((m) => m[1]!);

  it('docs/subscriptions.md has subscription documents', () => {
    expect(documented.length).toBeGreaterThan(0);
  });

  it.each(documented)('%s is within every default limit with a margin of 2×', (source) => {
    const measures = measureOperation(subscriptions, source);
    for (const [limit, value] of Object.entries(measures)) {
      expect(value * MARGIN, `${limit}: ${value}`).toBeLessThanOrEqual(
        DEFAULT_OPERATION_LIMITS[limit as keyof OperationLimits],
      );
    }
    expect(operationLimitErrors(subscriptions, { query: source }, DEFAULT_OPERATION_LIMITS)).toBeUndefined();
  });
});
