// One list of each record's fields: the REST facade's named fragments (gateway/src/rest/operations). The REST
// answers, the OpenAPI document's response schemas and the read cache's room and table fields derive from them;
// the schema is checked against them here, so a field added to a type that no fragment selects or names as left
// out fails instead of silently never reaching REST.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import {
  isObjectType,
  Kind,
  parse,
  type FragmentDefinitionNode,
  type ObjectTypeDefinitionNode,
  type SelectionSetNode,
} from 'graphql';
import { describe, expect, it } from 'vitest';
import { READ_SCOPES } from '@coperto/cache';
import { CACHEABLE_FIELDS } from '../src/graphql/read-cache/cacheable-fields.js';
import { openApiDocument } from '../src/host/app.js';
import { apiSchemaOf } from '../src/pages/openapi/api-schema.js';
import { operations } from '../src/rest/operations.js';

const supergraph = readFileSync(resolve(import.meta.dirname, '../../supergraph.graphql'), 'utf8');
const api = apiSchemaOf(supergraph);

/**
 * The fields of a type its REST fragment does not select, each for a reason: another route reads it, another
 * subgraph resolves it from an id the fragment has, or only one answer may show it.
 */
const LEFT_OUT: Readonly<Record<string, readonly string[]>> = {
  // GET /api/tavoli/:id/storico; a table's bookings and room by GET /api/prenotazioni and roomId.
  TavoloFields: ['prenotazioni', 'storico', 'history', 'sala'],
  // Read by tableIds and roomId.
  CombinazioneFields: ['tavoli'],
  SalaFields: ['tavoli'],
  // Guests by GET /api/ospiti; the tables by tableIds; the held window and reminders are read over GraphQL; the
  // guest token only in the answer to the create (CreatePrenotazione adds it).
  PrenotazioneFields: [
    'ospite',
    'guest',
    'tavoli',
    'effectiveDurationMinutes',
    'endsAt',
    'gestione',
    'manage',
    'promemoria',
    'reminders',
  ],
  // What a payment is taken with is only in a booking's answer (GaranziaPrenotazioneFields).
  GaranziaFields: ['clientSecret', 'chiavePubblicabile', 'publishableKey', 'contoStripe', 'stripeAccount'],
  // The batch is named by batchId (the seed's name).
  BatchUploadFields: ['id'],
  VoceAttesaFields: ['ospite', 'guest'],
  // GET /api/ospiti/:id/prenotazioni.
  OspiteFields: ['prenotazioni', 'bookings'],
  // Only in the answers that make or rotate it.
  WebhookFields: ['secret'],
};

/** Every named fragment of the REST operations, once each. */
function restFragments(): Map<string, FragmentDefinitionNode> {
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const source of Object.values(operations)) {
    for (const definition of parse(source, { noLocation: true }).definitions) {
      if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition);
    }
  }
  return fragments;
}

/** The fields a selection set selects at its top level, through the fragments it spreads. */
function selectedFields(set: SelectionSetNode, fragments: Map<string, FragmentDefinitionNode>): string[] {
  return set.selections.flatMap((s) => {
    if (s.kind === Kind.FIELD) return [s.name.value];
    if (s.kind === Kind.FRAGMENT_SPREAD)
      return selectedFields(fragments.get(s.name.value)!.selectionSet, fragments);
    return selectedFields(s.selectionSet, fragments);
  });
}

/** Which subgraph resolves each field of `type` in the supergraph (a key field shared by all: undefined). */
function resolvingGraphs(type: string): Map<string, string | undefined> {
  const definition = parse(supergraph).definitions.find(
    (d): d is ObjectTypeDefinitionNode => d.kind === Kind.OBJECT_TYPE_DEFINITION && d.name.value === type,
  )!;
  return new Map(
    (definition.fields ?? []).map((field) => {
      const join = field.directives?.find((d) => d.name.value === 'join__field');
      const graph = join?.arguments?.find((a) => a.name.value === 'graph')?.value;
      return [field.name.value, graph?.kind === Kind.ENUM ? graph.value : undefined];
    }),
  );
}

const fragments = restFragments();
const fieldsOf = (name: string) => selectedFields(fragments.get(name)!.selectionSet, fragments);

describe('the REST fragments: one list of each record’s fields', () => {
  it.each([...fragments.values()].map((f) => [f.name.value, f] as const))(
    '%s selects every field of its type but the ones it leaves out',
    (name, fragment) => {
      const type = api.getType(fragment.typeCondition.name.value);
      if (!isObjectType(type)) throw new Error(`${name} is on ${String(type)}, not an object type`);
      const leftOut = LEFT_OUT[name] ?? [];
      const selected = new Set(fieldsOf(name));
      const missing = Object.keys(type.getFields()).filter((f) => !selected.has(f) && !leftOut.includes(f));
      expect(missing, `add them to ${name} or to LEFT_OUT`).toEqual([]);
      // A stale entry of LEFT_OUT (selected after all, or gone from the type) fails too.
      expect(leftOut.filter((f) => selected.has(f) || !(f in type.getFields()))).toEqual([]);
    },
  );

  it('names no fragment in LEFT_OUT that the operations lack', () => {
    expect(Object.keys(LEFT_OUT).filter((name) => !fragments.has(name))).toEqual([]);
  });

  it("the OpenAPI document's table and room are the fragments' fields", () => {
    const doc = openApiDocument(supergraph) as {
      components: { schemas: Record<string, { properties: Record<string, unknown> }> };
    };
    expect(Object.keys(doc.components.schemas.Tavolo!.properties)).toEqual(fieldsOf('TavoloFields'));
    expect(Object.keys(doc.components.schemas.Sala!.properties)).toEqual(fieldsOf('SalaFields'));
  });

  it("the read cache's table and room fields are the fragments' fields, less the lock, plus the links", () => {
    const cached = (type: string) => [...CACHEABLE_FIELDS.get(type)!.keys()].sort();
    expect(cached('Tavolo')).toEqual(
      [...fieldsOf('TavoloFields').filter((f) => f !== 'lock'), 'sala'].sort(),
    );
    expect(cached('Sala')).toEqual([...fieldsOf('SalaFields'), 'tavoli'].sort());
  });

  it('caches a field only under the scope of the subgraph that resolves it', () => {
    // A field another subgraph resolves (a table's bookings) changes without any write to rooms or tables.
    const owner: Record<string, string> = { [READ_SCOPES.tables]: 'TAVOLO', [READ_SCOPES.rooms]: 'SALA' };
    for (const type of ['Tavolo', 'Sala']) {
      const graphs = resolvingGraphs(type);
      for (const [field, scope] of CACHEABLE_FIELDS.get(type)!) {
        expect([undefined, owner[scope]], `${type}.${field}`).toContain(graphs.get(field));
      }
    }
  });
});
