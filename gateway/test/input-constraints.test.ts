// The constraint tables are keyed by strings ('Type.field', 'Operation.$variable', 'Type'): a key that names
// nothing in the API schema or the REST operations would silently constrain nothing. Each must name something.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { buildSchema, isInputObjectType, Kind, parse, type OperationDefinitionNode } from 'graphql';
import { describe, expect, it } from 'vitest';
import { INPUT_CONSTRAINTS } from '../src/rest/input-constraints.js';
import { OBJECT_CONSTRAINTS } from '../src/rest/object-constraints.js';
import { operations } from '../src/rest/operations.js';

const schema = buildSchema(readFileSync(resolve(import.meta.dirname, '../../schema/api.graphql'), 'utf8'));

/** Why `key` names nothing, or undefined when it names an input field, an input type or a variable. */
function unknownKey(key: string): string | undefined {
  const [owner = '', member] = key.split('.');
  if (member?.startsWith('$')) {
    const document = operations[owner as keyof typeof operations];
    if (!document) return `${key}: no REST operation ${owner}`;
    const operation = parse(document).definitions.find(
      (d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION && d.name?.value === owner,
    );
    const variables = operation?.variableDefinitions?.map((v) => v.variable.name.value) ?? [];
    return variables.includes(member.slice(1)) ? undefined : `${key}: ${owner} has no variable ${member}`;
  }
  const type = schema.getType(owner);
  if (!isInputObjectType(type)) return `${key}: ${owner} is not an input type`;
  if (member !== undefined && !type.getFields()[member]) return `${key}: ${owner} has no field ${member}`;
  return undefined;
}

describe('the constraint tables', () => {
  it('key every field constraint by an input field or an operation variable that exists', () => {
    expect(Object.keys(INPUT_CONSTRAINTS).length).toBeGreaterThan(50);
    expect(Object.keys(INPUT_CONSTRAINTS).map(unknownKey).filter(Boolean)).toEqual([]);
  });

  it('key every object constraint by an input type or an operation variable that exists', () => {
    expect(Object.keys(OBJECT_CONSTRAINTS).map(unknownKey).filter(Boolean)).toEqual([]);
  });

  it('tells a key that names nothing', () => {
    expect(['LockInput.tll', 'Lockinput', 'SyncPrenotazioni.$since', 'Nope.$x'].map(unknownKey)).toEqual([
      'LockInput.tll: LockInput has no field tll',
      'Lockinput: Lockinput is not an input type',
      'SyncPrenotazioni.$since: SyncPrenotazioni has no variable $since',
      'Nope.$x: no REST operation Nope',
    ]);
  });
});
