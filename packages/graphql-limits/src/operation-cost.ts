import {
  getNamedType,
  getNullableType,
  isCompositeType,
  isLeafType,
  isListType,
  isInterfaceType,
  isObjectType,
  Kind,
  type ASTVisitor,
  type GraphQLCompositeType,
  type GraphQLOutputType,
  type GraphQLSchema,
  type FragmentDefinitionNode,
  type OperationDefinitionNode,
  type SelectionSetNode,
  type ValidationContext,
  type ValidationRule,
} from 'graphql';
import { queryTooComplex } from './limit-error.js';

/**
 * How many items a list field is assumed to return when estimating cost. A list of objects multiplies the cost
 * of what is selected under it, so the cyclic relations (Sala.tavoli ↔ Tavolo.sala, Tavolo.prenotazioni ↔
 * Prenotazione.tavoli) grow by this factor at every round trip while each level alone stays cheap.
 */
export const LIST_SIZE_ESTIMATE = 10;

/**
 * The estimated cost of an operation: every field costs 1, plus what it selects; a list of objects costs
 * LIST_SIZE_ESTIMATE × (1 + what each item selects). Conservative and independent of the variables: `@skip`
 * and `@include` are ignored (every selection counts) and so are arguments. Each fragment is costed once,
 * so the estimate takes time linear in the document even when fragments are spread many times.
 */
export function operationCost(
  schema: GraphQLSchema,
  operation: OperationDefinitionNode,
  fragmentOf: (name: string) => FragmentDefinitionNode | null | undefined,
): number {
  const fragmentCosts = new Map<string, number>();
  const inProgress = new Set<string>();

  const selectionCost = (type: GraphQLCompositeType, selectionSet: SelectionSetNode): number => {
    let total = 0;
    for (const selection of selectionSet.selections) {
      if (selection.kind === Kind.FIELD) {
        const field =
          isObjectType(type) || isInterfaceType(type) ? type.getFields()[selection.name.value] : undefined;
        if (!field) {
          total += 1; // __typename, or a field the other validation rules report
          continue;
        }
        total += fieldCost(field.type, selection.selectionSet);
      } else if (selection.kind === Kind.INLINE_FRAGMENT) {
        const condition = selection.typeCondition ? schema.getType(selection.typeCondition.name.value) : type;
        if (condition && isCompositeType(condition))
          total += selectionCost(condition, selection.selectionSet);
      } else {
        total += spreadCost(selection.name.value);
      }
    }
    return total;
  };

  const fieldCost = (type: GraphQLOutputType, selectionSet: SelectionSetNode | undefined): number => {
    const named = getNamedType(type);
    if (!selectionSet || isLeafType(named) || !isCompositeType(named)) return 1;
    const own = 1 + selectionCost(named, selectionSet);
    return isListType(getNullableType(type)) ? LIST_SIZE_ESTIMATE * own : own;
  };

  const spreadCost = (name: string): number => {
    const known = fragmentCosts.get(name);
    if (known !== undefined) return known;
    const fragment = fragmentOf(name);
    if (!fragment || inProgress.has(name)) return 0; // unknown or cyclic: reported by the standard rules
    const type = schema.getType(fragment.typeCondition.name.value);
    if (!type || !isCompositeType(type)) return 0;
    inProgress.add(name);
    const cost = selectionCost(type, fragment.selectionSet);
    inProgress.delete(name);
    fragmentCosts.set(name, cost);
    return cost;
  };

  const root =
    operation.operation === 'query'
      ? schema.getQueryType()
      : operation.operation === 'mutation'
        ? schema.getMutationType()
        : schema.getSubscriptionType();
  return root ? selectionCost(root, operation.selectionSet) : 0;
}

/** A validation rule reporting QUERY_TOO_COMPLEX (limit `cost`) for each operation over `maxCost`. */
export function costLimitRule(maxCost: number): ValidationRule {
  return (context: ValidationContext): ASTVisitor => ({
    OperationDefinition(operation) {
      const cost = operationCost(context.getSchema(), operation, (name) => context.getFragment(name));
      if (cost > maxCost) context.reportError(queryTooComplex('cost', maxCost, cost));
    },
  });
}
