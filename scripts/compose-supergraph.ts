// Composes supergraph.yaml into supergraph.graphql (the file the gateway serves). `pnpm supergraph`.
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { composeSupergraph } from '../gateway/src/graphql/supergraph.js';

const root = resolve(import.meta.dirname, '..');
const sdl = composeSupergraph(resolve(root, 'supergraph.yaml'));
writeFileSync(resolve(root, 'supergraph.graphql'), sdl);
console.log(`supergraph.graphql written (${sdl.length} characters)`);
