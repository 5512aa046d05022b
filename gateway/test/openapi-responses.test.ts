// The response schemas of /openapi.json say exactly what an answer holds: a field GraphQL declares non-null is
// required and never null, a nullable one may be null; an event's record (AsyncAPI) keeps every field nullable.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { buildSchema, Kind, parse, type OperationDefinitionNode } from 'graphql';
import { describe, expect, it } from 'vitest';
import { openApiDocument } from '../src/host/app.js';
import { outputSchema, SchemaRegistry, type JsonSchema } from '../src/pages/openapi/json-schema.js';

const supergraph = readFileSync(resolve(import.meta.dirname, '../../supergraph.graphql'), 'utf8');

interface Doc {
  paths: Record<
    string,
    Record<string, { responses: Record<string, { content: Record<string, { schema: JsonSchema }> }> }>
  >;
  components: {
    schemas: Record<string, JsonSchema & { properties: Record<string, JsonSchema>; required: string[] }>;
  };
}

const doc = openApiDocument(supergraph) as unknown as Doc;
const success = (path: string, method: string, status: string) =>
  doc.paths[path]![method]!.responses[status]!.content['application/json']!.schema;
const nullable = (schema: JsonSchema) =>
  (Array.isArray(schema.type) && schema.type.includes('null')) ||
  (Array.isArray(schema.anyOf) && (schema.anyOf as JsonSchema[]).some((b) => b.type === 'null'));

describe('/openapi.json responses', () => {
  it('makes the fields GraphQL declares non-null required and not nullable', () => {
    const tavolo = doc.components.schemas.Tavolo!;
    for (const field of ['id', 'name', 'seats', 'status', 'createdAt', 'updatedAt']) {
      expect(tavolo.required, field).toContain(field);
      expect(nullable(tavolo.properties[field]!), field).toBe(false);
    }
    expect(tavolo.properties.status!.enum).not.toContain(null);
    // Nullable in the schema: present in every answer, possibly null.
    for (const field of ['roomId', 'lock', 'orderId']) {
      expect(tavolo.required, field).toContain(field);
      expect(nullable(tavolo.properties[field]!), field).toBe(true);
    }
    // A list of non-null objects is a list of the object itself.
    expect(success('/api/tavoli', 'get', '200')).toEqual({
      type: 'array',
      items: { $ref: '#/components/schemas/Tavolo' },
    });
  });

  it('never documents null as the success of a read-one route (a null result is its 404)', () => {
    expect(success('/api/tavoli/{id}', 'get', '200')).toEqual({ $ref: '#/components/schemas/Tavolo' });
    expect(success('/api/sale/{id}', 'get', '200')).toEqual({ $ref: '#/components/schemas/Sala' });
  });

  it('documents GET /api/disponibilita with its places and free places, required and never null', () => {
    expect(success('/api/disponibilita', 'get', '200')).toEqual({
      $ref: '#/components/schemas/DisponibilitaGiorno',
    });
    const day = doc.components.schemas.DisponibilitaGiorno!;
    const time = doc.components.schemas.OrarioDisponibile!;
    for (const [object, fields] of [
      [day, ['postiTotali', 'spotsTotal']],
      [time, ['postiLiberi', 'spotsOpen']],
    ] as const) {
      for (const field of fields) {
        expect(object.required, field).toContain(field);
        expect(object.properties[field]!.type, field).toBe('integer');
      }
    }
    // Staff-only fields stay in every answer, null for a channel key.
    expect(time.required).toContain('tableIds');
    expect(nullable(time.properties.tableIds!)).toBe(true);
  });

  const schema = buildSchema(`
    type Query { thing: Thing! }
    type Thing { id: ID! note: String tags: [String!] extra: Int! }
  `);
  const selection = (query: string) =>
    (parse(query).definitions[0] as OperationDefinitionNode).selectionSet.selections.find(
      (s) => s.kind === Kind.FIELD,
    )!;
  const thingOf = (query: string, nullability: 'declared' | 'every-field') => {
    const registry = new SchemaRegistry();
    const field = selection(query);
    if (field.kind !== Kind.FIELD) throw new Error('a field');
    const root = outputSchema(schema.getQueryType()!.getFields().thing!.type, field.selectionSet, {
      fragments: {},
      registry,
      nullability,
    });
    return { root, thing: registry.schemas.Thing! };
  };

  it('leaves a field under @skip or @include out of `required`', () => {
    const { thing } = thingOf(
      '{ thing { id note @include(if: false) ... @skip(if: true) { extra } } }',
      'declared',
    );
    expect(thing.required).toEqual(['id']);
    expect(thing.properties).toMatchObject({ id: { type: 'string' }, note: { type: ['string', 'null'] } });
    expect((thing.properties as Record<string, JsonSchema>).extra).toMatchObject({ type: 'integer' });
  });

  it('keeps every field nullable for records as stored (the events of /asyncapi.json)', () => {
    const declared = thingOf('{ thing { id tags } }', 'declared');
    expect(declared.root).toEqual({ $ref: '#/components/schemas/Thing' });
    expect(declared.thing.properties).toEqual({
      id: { type: 'string' },
      tags: { type: ['array', 'null'], items: { type: 'string' } },
    });
    const stored = thingOf('{ thing { id tags } }', 'every-field');
    expect(nullable(stored.root)).toBe(true);
    expect(stored.thing.properties).toEqual({
      id: { type: ['string', 'null'] },
      tags: { type: ['array', 'null'], items: { type: ['string', 'null'] } },
    });
  });
});
