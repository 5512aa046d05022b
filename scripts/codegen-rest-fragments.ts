// Writes gateway/src/rest/generated/fragments.ts, the REST facade's named fragments, from the API schema of
// supergraph.graphql and the plan in gateway/src/rest/fragment-plan.ts (run by `pnpm codegen` before GraphQL
// Code Generator, which then validates and types the operations that spread them). `--check`: fails when the
// committed file is out of date instead of writing it (`pnpm codegen:check`).
//
// A fragment selects every field of its type but the ones its plan leaves out, in the order of the type's own
// subgraph (the one resolving most of its fields: its fields and keys in its schema's order), then the fields
// other subgraphs add to it, in the supergraph's order (composition lists subgraphs by name, so a booking's
// guarantee would otherwise come before its date).
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import {
  getNamedType,
  isCompositeType,
  isNonNullType,
  isObjectType,
  Kind,
  parse,
  type GraphQLField,
  type GraphQLObjectType,
  type GraphQLSchema,
  type ObjectTypeDefinitionNode,
} from 'graphql';
import { apiSchemaOf } from '../gateway/src/pages/openapi/api-schema.js';
import { FRAGMENT_PLAN, type FragmentPlan, type SelectionPlan } from '../gateway/src/rest/fragment-plan.js';

/** One generated fragment: its definition's text, and the fragments it spreads in the order it first does. */
interface BuiltFragment {
  readonly name: string;
  readonly block: string;
  readonly spreads: readonly string[];
}

/** The constant a fragment is exported as: `TavoloFields` → `TAVOLO_FIELDS`. */
export function constantName(fragment: string): string {
  return fragment.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toUpperCase();
}

/** The subgraphs resolving each field of each object type of a supergraph (none named: every subgraph of the type). */
function resolvingGraphs(supergraphSdl: string): Map<string, Map<string, string[]>> {
  const types = new Map<string, Map<string, string[]>>();
  for (const definition of parse(supergraphSdl, { noLocation: true }).definitions) {
    if (definition.kind !== Kind.OBJECT_TYPE_DEFINITION) continue;
    const fields = new Map<string, string[]>();
    for (const field of (definition as ObjectTypeDefinitionNode).fields ?? []) {
      const graphs = (field.directives ?? []).flatMap((directive) => {
        if (directive.name.value !== 'join__field') return [];
        const graph = directive.arguments?.find((a) => a.name.value === 'graph')?.value;
        return graph?.kind === Kind.ENUM ? [graph.value] : [];
      });
      fields.set(field.name.value, graphs);
    }
    types.set(definition.name.value, fields);
  }
  return types;
}

/** A type's fields in the order its fragments list them: its own subgraph's first, then the others'. */
function fieldOrder(type: GraphQLObjectType, graphs: Map<string, string[]> | undefined): string[] {
  const names = Object.keys(type.getFields());
  const counts = new Map<string, number>();
  for (const name of names) {
    for (const graph of graphs?.get(name) ?? []) counts.set(graph, (counts.get(graph) ?? 0) + 1);
  }
  const owner = [...counts].reduce<[string, number] | undefined>(
    (best, entry) => (!best || entry[1] > best[1] ? entry : best),
    undefined,
  )?.[0];
  const own = (name: string) => {
    const resolvedBy = graphs?.get(name) ?? [];
    return resolvedBy.length === 0 || (owner !== undefined && resolvedBy.includes(owner));
  };
  return [...names.filter(own), ...names.filter((name) => !own(name))];
}

/** Builds every fragment of a plan against an API schema; any name the schema lacks is an error. */
class FragmentBuilder {
  private readonly built = new Map<string, BuiltFragment>();
  private readonly selecting = new Set<string>();
  private readonly graphs: Map<string, Map<string, string[]>>;
  private readonly api: GraphQLSchema;

  constructor(
    supergraphSdl: string,
    private readonly plan: Readonly<Record<string, FragmentPlan>>,
  ) {
    this.api = apiSchemaOf(supergraphSdl);
    this.graphs = resolvingGraphs(supergraphSdl);
  }

  fragment(name: string): BuiltFragment {
    const done = this.built.get(name);
    if (done) return done;
    const plan = this.plan[name];
    if (!plan) throw new Error(`rest fragments: no fragment ${name} in the plan`);
    if (this.selecting.has(name)) throw new Error(`rest fragments: ${name} extends itself`);
    this.selecting.add(name);
    const type = this.objectType(plan.type, name);
    const lines: string[] = [];
    const spreads: string[] = [];
    let inherited = new Set<string>();
    if (plan.extends) {
      const base = this.plan[plan.extends];
      if (base?.type !== plan.type) {
        throw new Error(
          `rest fragments: ${name} extends ${plan.extends}, which is not a fragment on ${plan.type}`,
        );
      }
      this.fragment(plan.extends);
      inherited = new Set(this.topFields(plan.extends));
      lines.push(`    ...${plan.extends}`);
      spreads.push(plan.extends);
    }
    lines.push(...this.selection(type, plan, name, '    ', spreads, inherited));
    const block = `  fragment ${name} on ${plan.type} {\n${lines.map((line) => `${line}\n`).join('')}  }\n`;
    const fragment = { name, block, spreads: [...new Set(spreads)] };
    this.selecting.delete(name);
    this.built.set(name, fragment);
    return fragment;
  }

  /** The fields a fragment selects at its top level (through the one it extends). */
  private topFields(name: string): string[] {
    const plan = this.plan[name]!;
    const type = this.objectType(plan.type, name);
    const own = this.selectedFields(type, plan, name, new Set());
    return plan.extends ? [...this.topFields(plan.extends), ...own] : own;
  }

  private objectType(typeName: string, where: string): GraphQLObjectType {
    const type = this.api.getType(typeName);
    if (!type) throw new Error(`rest fragments: ${where} is on ${typeName}, which the API schema lacks`);
    if (!isObjectType(type))
      throw new Error(`rest fragments: ${where} is on ${typeName}, not an object type`);
    return type;
  }

  /** The fields `plan` selects of `type`, in order, after checking every name it gives. */
  private selectedFields(
    type: GraphQLObjectType,
    plan: SelectionPlan,
    where: string,
    inherited: ReadonlySet<string>,
  ): string[] {
    const fields = type.getFields();
    const leftOut = (plan.leftOut ?? []).flatMap((group) => group.fields);
    const objects = Object.keys(plan.objects ?? {});
    for (const name of [...leftOut, ...objects]) {
      if (!(name in fields))
        throw new Error(`rest fragments: ${where} names ${type.name}.${name}, which the API schema lacks`);
    }
    const twice = [...leftOut, ...objects].filter((name, i, all) => all.indexOf(name) !== i);
    if (twice.length > 0) throw new Error(`rest fragments: ${where} names ${twice.join(', ')} twice`);
    const stale = leftOut.filter((name) => inherited.has(name));
    if (stale.length > 0)
      throw new Error(`rest fragments: ${where} leaves out ${stale.join(', ')}, which it extends`);
    return fieldOrder(type, this.graphs.get(type.name)).filter(
      (name) => !leftOut.includes(name) && !inherited.has(name),
    );
  }

  /** The lines of a selection of `type` at `indent`; the fragments it spreads are added to `spreads`. */
  private selection(
    type: GraphQLObjectType,
    plan: SelectionPlan,
    where: string,
    indent: string,
    spreads: string[],
    inherited: ReadonlySet<string> = new Set(),
  ): string[] {
    const fields = type.getFields();
    return this.selectedFields(type, plan, where, inherited).flatMap((name) => {
      const field = fields[name]!;
      const path = `${where} (${type.name}.${name})`;
      if (field.args.some((arg) => isNonNullType(arg.type) && arg.defaultValue === undefined)) {
        throw new Error(`rest fragments: ${path} needs arguments: leave it out`);
      }
      const object = plan.objects?.[name];
      if (!isCompositeType(getNamedType(field.type))) {
        if (object !== undefined)
          throw new Error(`rest fragments: ${path} is not an object: remove it from objects`);
        return [`${indent}${name}`];
      }
      if (object === undefined) {
        throw new Error(
          `rest fragments: ${path} is an object: name its fragment or selection in objects, or leave it out`,
        );
      }
      return [
        `${indent}${name} {`,
        ...this.nested(field, object, path, `${indent}  `, spreads),
        `${indent}}`,
      ];
    });
  }

  private nested(
    field: GraphQLField<unknown, unknown>,
    object: string | SelectionPlan,
    path: string,
    indent: string,
    spreads: string[],
  ): string[] {
    const named = getNamedType(field.type);
    if (typeof object === 'string') {
      const target = this.plan[object];
      if (!target) throw new Error(`rest fragments: ${path} takes ${object}, which the plan lacks`);
      if (target.type !== named.name) {
        throw new Error(`rest fragments: ${path} is a ${named.name}, but ${object} is on ${target.type}`);
      }
      spreads.push(object);
      return [`${indent}...${object}`];
    }
    if (!isObjectType(named))
      throw new Error(`rest fragments: ${path} is a ${named.name}: give it a fragment`);
    return this.selection(named, object, path, indent, spreads);
  }
}

/** One exported constant: its fragment, the inner fragments written out with it, the constants it interpolates. */
interface FragmentConstant {
  readonly fragment: BuiltFragment;
  readonly inner: readonly BuiltFragment[];
  readonly uses: readonly string[];
}

/** The constants of a plan (every fragment not `inner`), in the order the plan lists them. */
export function restFragmentConstants(
  supergraphSdl: string,
  plan: Readonly<Record<string, FragmentPlan>>,
): FragmentConstant[] {
  const builder = new FragmentBuilder(supergraphSdl, plan);
  const names = Object.keys(plan);
  for (const name of names) builder.fragment(name);
  const writtenIn = new Map<string, string[]>();
  const constants = names
    .filter((name) => !plan[name]!.inner)
    .map((root) => {
      const inner: BuiltFragment[] = [];
      const uses: string[] = [];
      const visit = (name: string) => {
        for (const spread of builder.fragment(name).spreads) {
          if (spread === root) throw new Error(`rest fragments: ${root} spreads itself (through ${name})`);
          if (!plan[spread]!.inner) {
            if (!uses.includes(spread)) uses.push(spread);
          } else if (!inner.some((fragment) => fragment.name === spread)) {
            inner.push(builder.fragment(spread));
            writtenIn.set(spread, [...(writtenIn.get(spread) ?? []), root]);
            visit(spread);
          }
        }
      };
      visit(root);
      return { fragment: builder.fragment(root), inner, uses };
    });
  for (const name of names.filter((n) => plan[n]!.inner)) {
    const roots = writtenIn.get(name) ?? [];
    if (roots.length !== 1) {
      throw new Error(
        roots.length === 0
          ? `rest fragments: ${name} is inner but no fragment spreads it`
          : `rest fragments: ${name} is inner but ${roots.join(' and ')} both spread it: give it its own constant`,
      );
    }
  }
  return constants;
}

/** The text of a constant's GraphQL: its fragment, its inner fragments, then the constants it spreads. */
function constantText(constant: FragmentConstant): string {
  const blocks = [constant.fragment, ...constant.inner].map((fragment) => fragment.block).join('');
  const uses = constant.uses.map((name) => `  \${${constantName(name)}}\n`).join('');
  return `\n${blocks}${uses}`;
}

/** The generated module: every constant after the ones it interpolates. */
export function restFragmentsModule(
  supergraphSdl: string,
  plan: Readonly<Record<string, FragmentPlan>> = FRAGMENT_PLAN,
): string {
  const constants = new Map(restFragmentConstants(supergraphSdl, plan).map((c) => [c.fragment.name, c]));
  const written = new Set<string>();
  const writing = new Set<string>();
  const out: string[] = [];
  const write = (name: string) => {
    if (written.has(name)) return;
    if (writing.has(name)) throw new Error(`rest fragments: ${name} spreads itself through other constants`);
    writing.add(name);
    const constant = constants.get(name)!;
    constant.uses.forEach(write);
    out.push(`export const ${constantName(name)} = /* GraphQL */ \`${constantText(constant)}\`;\n`);
    written.add(name);
  };
  [...constants.keys()].forEach(write);
  return [
    '// Generated by `pnpm codegen` (scripts/codegen-rest-fragments.ts) from the API schema of supergraph.graphql',
    '// and gateway/src/rest/fragment-plan.ts: do not edit.',
    '',
    out.join('\n'),
  ].join('\n');
}

const root = resolve(import.meta.dirname, '..');
const target = resolve(root, 'gateway/src/rest/generated/fragments.ts');

if (import.meta.url === `file://${process.argv[1]}`) {
  const text = restFragmentsModule(readFileSync(resolve(root, 'supergraph.graphql'), 'utf8'));
  if (process.argv.includes('--check')) {
    let committed = '';
    try {
      committed = readFileSync(target, 'utf8');
    } catch {
      // Missing: out of date.
    }
    if (committed !== text) {
      console.error(
        'gateway/src/rest/generated/fragments.ts is out of date: run `pnpm codegen` and commit the result',
      );
      process.exit(1);
    }
  } else {
    writeFileSync(target, text);
    console.log(`wrote ${target.slice(root.length + 1)}`);
  }
}
