// Recomposes supergraph.yaml and fails when composition fails or supergraph.graphql is out of date.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { composeSupergraph } from '../gateway/src/graphql/supergraph.js';

const root = resolve(import.meta.dirname, '..');
const composed = composeSupergraph(resolve(root, 'supergraph.yaml'));
const committed = readFileSync(resolve(root, 'supergraph.graphql'), 'utf8');
if (composed !== committed) {
  console.error('supergraph.graphql is out of date: run `pnpm supergraph` and commit the result');
  process.exit(1);
}
console.log('supergraph composes and supergraph.graphql is up to date');
