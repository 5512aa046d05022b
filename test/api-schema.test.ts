import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { expect, it } from 'vitest';
import { apiSchemaText } from '../scripts/print-api-schema.js';

it('schema/api.graphql is the public API schema of the committed supergraph (pnpm schema)', () => {
  const committed = readFileSync(resolve(import.meta.dirname, '../schema/api.graphql'), 'utf8');
  expect(committed).toBe(apiSchemaText());
  expect(committed).not.toContain('join__');
});
