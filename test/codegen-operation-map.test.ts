import { parse } from 'graphql';
import { describe, expect, it } from 'vitest';
import { plugin } from '../scripts/codegen-operation-map.js';

const documents = [
  { document: parse('query ListSale { sale { id } } fragment F on Sala { id }') },
  { document: parse('mutation CreateSala($input: SalaInput!) { createSala(input: $input) { id } }') },
];

describe('the operation-map codegen plugin', () => {
  it('maps every named operation to its generated result type, by kind', () => {
    expect(plugin(null, documents, { interfaceName: 'OperationResults' })).toBe(
      '\nexport interface OperationResults {\n  ListSale: ListSaleQuery;\n  CreateSala: CreateSalaMutation;\n}\n',
    );
  });

  it('refuses an anonymous operation', () => {
    expect(() => plugin(null, [{ document: parse('{ sale { id } }') }], { interfaceName: 'X' })).toThrow(
      /needs a name/,
    );
  });
});
