// One list of each record's fields: the REST facade's named fragments, generated from the schema and the plan in
// gateway/src/rest/fragment-plan.ts (scripts/codegen-rest-fragments.ts; its own tests are
// rest-fragment-generator.test.ts). The REST answers, the OpenAPI document's response schemas and the read
// cache's room and table fields derive from them, so every object a REST operation answers is one of them.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import {
  Kind,
  parse,
  print,
  type FragmentDefinitionNode,
  type ObjectTypeDefinitionNode,
  type SelectionSetNode,
} from 'graphql';
import { describe, expect, it } from 'vitest';
import { READ_SCOPES } from '@coperto/cache';
import { CACHEABLE_FIELDS } from '../src/graphql/read-cache/cacheable-fields.js';
import { openApiDocument } from '../src/host/app.js';
import { restFragmentConstants } from '../../scripts/codegen-rest-fragments.js';
import { FRAGMENT_PLAN } from '../src/rest/fragment-plan.js';
import { operations } from '../src/rest/operations.js';

const supergraph = readFileSync(resolve(import.meta.dirname, '../../supergraph.graphql'), 'utf8');

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

/**
 * The REST operations that select an object's fields inline rather than by one planned fragment, each with its
 * reason. Any other one fails below: a field added to its type would need a second edit, in the operation.
 */
const INLINE_SELECTIONS: Record<string, string> = {
  StoricoTavolo:
    "a table's history, not a table: its id and storico/history with the route's $limite, an argument a planned " +
    'fragment does not pass (the history entries are CambioFields)',
};

/**
 * What each root field of an operation selects other than exactly one fragment of the plan: the fields or
 * fragments it selects inline (a spread beside other selections, or of a fragment the plan lacks, counts too).
 */
function inlineSelections(source: string): string[] {
  return parse(source, { noLocation: true }).definitions.flatMap((definition) => {
    if (definition.kind !== Kind.OPERATION_DEFINITION) return [];
    return definition.selectionSet.selections.flatMap((root) => {
      if (root.kind !== Kind.FIELD || !root.selectionSet) return [];
      const [only, ...others] = root.selectionSet.selections;
      if (only?.kind === Kind.FRAGMENT_SPREAD && others.length === 0 && only.name.value in FRAGMENT_PLAN)
        return [];
      return [`${root.name.value} { ${print(root.selectionSet).replace(/\s+/g, ' ').slice(2, -2)} }`];
    });
  });
}

const fragments = restFragments();
const fieldsOf = (name: string) => selectedFields(fragments.get(name)!.selectionSet, fragments);

describe('the REST fragments: one list of each record’s fields', () => {
  it('the operations define every fragment of the plan, as generated, and no other', () => {
    expect([...fragments.keys()].filter((name) => !(name in FRAGMENT_PLAN))).toEqual([]);
    expect(Object.keys(FRAGMENT_PLAN).filter((name) => !fragments.has(name))).toEqual([]);
    const generated = new Map(
      restFragmentConstants(supergraph, FRAGMENT_PLAN).flatMap((c) =>
        [c.fragment, ...c.inner].map((f) => [f.name, print(parse(f.block).definitions[0]!)] as const),
      ),
    );
    for (const [name, fragment] of fragments) expect(print(fragment), name).toBe(generated.get(name));
  });

  it('every REST operation selects each object by one fragment of the plan (but the exceptions, with reasons)', () => {
    const inline = Object.entries(operations).flatMap(([name, source]) =>
      inlineSelections(source).map((selection) => [name, selection] as const),
    );
    expect(inline.filter(([name]) => !(name in INLINE_SELECTIONS)).map((entry) => entry.join(': '))).toEqual(
      [],
    );
    // An exception no longer needed is taken out, so the list says only what is true.
    const inlineNames = new Set(inline.map(([name]) => name));
    expect(Object.keys(INLINE_SELECTIONS).filter((name) => !inlineNames.has(name))).toEqual([]);
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
