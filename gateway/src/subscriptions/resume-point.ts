import { GraphQLError, Kind, print, visit, type DocumentNode, type ValueNode } from 'graphql';

/** The argument every subscription field takes to resume after an event (events.graphql). */
const AFTER = 'after';

/** Where a subscription resumes, and what its group key holds instead of its document and variables. */
export interface ResumePoint {
  /** The `after` event id; undefined when the subscription starts live. */
  after: string | undefined;
  /** The document printed without its `after` argument. */
  keyDocument: string;
  /** The variables as sent, less the one that only carried `after`. */
  keyVariables: Readonly<Record<string, unknown>>;
}

/**
 * Takes `after` out of a subscription request (pure). Subscriptions that differ only in where they resume share
 * a group (one execution per live event: subscription-groups.ts); each member replays its own past. The
 * group's execution never reads `after` (the fields' resolvers pass the event through), so any member's
 * document can run for all. `after` given as a literal or a variable; a variable also used elsewhere stays in
 * the key. Throws a GraphQLError for a value that is no ID (a later member's variables are not coerced by the
 * group's first execution).
 */
export function resumePoint(
  document: DocumentNode,
  variables: Readonly<Record<string, unknown>> | null | undefined,
): ResumePoint {
  const sent = variables ?? {};
  let value: ValueNode | undefined;
  const stripped = visit(document, {
    Argument(node) {
      if (node.name.value !== AFTER) return undefined;
      value = node.value;
      return null;
    },
  });
  if (value === undefined) return { after: undefined, keyDocument: print(document), keyVariables: sent };
  if (value.kind !== Kind.VARIABLE)
    return { after: literalId(value), keyDocument: print(stripped), keyVariables: sent };
  const name = value.name.value;
  const after = variableId(name, sent[name]);
  if (variableUses(stripped, name) > 0) return { after, keyDocument: print(stripped), keyVariables: sent };
  const { [name]: _after, ...keyVariables } = sent;
  return { after, keyDocument: print(stripped), keyVariables };
}

function literalId(value: ValueNode): string | undefined {
  // Validation already refused any other literal for an ID argument.
  return value.kind === Kind.STRING || value.kind === Kind.INT ? value.value : undefined;
}

function variableId(name: string, value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'string') return value;
  if (typeof value === 'number' && Number.isSafeInteger(value)) return String(value);
  throw new GraphQLError(
    `Variable "$${name}" got invalid value ${JSON.stringify(value)}; ID cannot represent it.`,
    {
      extensions: { code: 'VALIDATION_FAILED' },
    },
  );
}

/** Uses of `$name` in the document, its definition aside. */
function variableUses(document: DocumentNode, name: string): number {
  let uses = 0;
  visit(document, {
    VariableDefinition: () => false,
    Variable(node) {
      if (node.name.value === name) uses++;
    },
  });
  return uses;
}
