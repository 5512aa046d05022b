import { buildSchema } from 'graphql';
import { describe, expect, it } from 'vitest';
import { plugin, typesReached } from '../scripts/codegen-sdl-excerpt.js';

const schema = buildSchema(/* GraphQL */ `
  scalar Money
  enum State {
    on
    off
  }
  input Inner {
    state: State
    price: Money
  }
  "Uses \`Inner\` twice."
  input Outer {
    a: Inner
    b: [Inner!]
    name: String
  }
  type Query {
    x(o: Outer): Boolean
  }
`);

describe('the sdl-excerpt codegen plugin', () => {
  it('prints the named input type and every input, enum and custom scalar it uses, once', () => {
    expect(typesReached(schema, ['Outer']).map((t) => t.name)).toEqual(['Outer', 'Inner', 'State', 'Money']);
  });

  it('exports SDL that builds the same types (a backtick in a description survives)', () => {
    const module = plugin(schema, [], { types: ['Outer'], exportName: 'SDL' });
    const sdl = new Function(`${module.replace('export const SDL =', 'return')}`)() as string;
    const copy = buildSchema(`${sdl} type Query { unused: Boolean }`);
    expect(copy.getType('Outer')?.description).toBe('Uses `Inner` twice.');
    const state = copy.getType('State');
    expect(state && 'getValues' in state ? state.getValues().map((v) => v.name) : []).toEqual(['on', 'off']);
  });

  it('refuses an output type', () => {
    expect(() => typesReached(schema, ['Query'])).toThrow(/not an input, enum or scalar/);
  });
});
