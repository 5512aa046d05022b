// `pnpm build`: compiles every deployable workspace package (gateway, subgraphs, packages except the test kit)
// from src/**/*.ts to dist/**/*.js, one file for one file, copies the other files of src/ (schema.graphql files
// read at run time) beside them, and the gateway's vendored browser files into gateway/dist/vendor/. Types are
// checked by `pnpm typecheck`, not here: the sources are written for per-file transpilation (isolatedModules,
// verbatimModuleSyntax), which is what esbuild does, in well under a second for the whole workspace. Each
// package's `exports` map the `compiled` condition onto dist/ (and the default onto src/, which the tests and tsx
// run). Then each process's entry point (gateway, every subgraph) is bundled into its dist/index.js with what it
// imports (scripts/bundle-entries.ts: a few seconds, one fewer second of CPU at every start):
// `node --conditions=compiled gateway/dist/index.js`.
import { build } from 'esbuild';
import { copyFileSync, existsSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { copyVendoredAssets } from '../gateway/src/pages/vendored-asset.js';
import { bundleEntry } from './bundle-entries.js';
import { deployablePackages, processPackages } from './workspace-packages.js';

const root = resolve(import.meta.dirname, '..');

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? filesUnder(join(dir, entry.name)) : [join(dir, entry.name)],
  );
}

const isSource = (file: string) => file.endsWith('.ts') && !file.endsWith('.d.ts');

const started = performance.now();
let compiled = 0;
let copied = 0;
let bundled = 0;
for (const pkg of deployablePackages(root)) {
  const src = join(pkg, 'src');
  const dist = join(pkg, 'dist');
  rmSync(dist, { recursive: true, force: true });
  const files = filesUnder(src);
  const sources = files.filter(isSource);
  await build({
    entryPoints: sources,
    outbase: src,
    outdir: dist,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    sourcemap: true,
    logLevel: 'warning',
  });
  compiled += sources.length;
  for (const file of files.filter((f) => !isSource(f))) {
    const target = join(dist, relative(src, file));
    mkdirSync(dirname(target), { recursive: true });
    copyFileSync(file, target);
    copied += 1;
  }
  if (!existsSync(dist)) throw new Error(`build: ${relative(root, pkg)} produced nothing`);
}
// Each process entry point becomes one file (scripts/bundle-entries.ts), once every package it imports is compiled.
for (const pkg of processPackages(root)) {
  await bundleEntry(pkg);
  bundled += 1;
}
// The developer pages' browser files come from build-time dependencies: copied, not installed, in production.
copied += copyVendoredAssets(join(root, 'gateway', 'dist', 'vendor'));
console.log(
  `build: ${compiled} modules compiled, ${bundled} entry points bundled, ${copied} assets copied in ${Math.round(performance.now() - started)} ms`,
);
