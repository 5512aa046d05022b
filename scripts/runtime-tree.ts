// `tsx scripts/runtime-tree.ts <dir>`: lays out in <dir> exactly what a production image runs, after
// `pnpm build`: the workspace manifests and lockfile, production dependencies only (installed by pnpm from the
// lockfile, offline from the store the build already filled), each deployable package's dist/ and the run-time
// files its code reads (schema.graphql, supergraph.graphql, the root package.json for the version). No sources,
// no tests, no tsx, TypeScript, vitest or prettier. The Dockerfile's runtime stage copies this tree, and
// test/compiled-runtime.e2e.test.ts starts the service from it.
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { deployablePackages } from './workspace-packages.js';

const root = resolve(import.meta.dirname, '..');

/** Files at the root of a deployable package that its code reads at run time (public: the gateway's page). */
const RUNTIME_FILES = ['package.json', 'schema.graphql', 'public'];

export function layOutRuntimeTree(target: string): void {
  rmSync(target, { recursive: true, force: true });
  mkdirSync(target, { recursive: true });
  const copy = (path: string) => {
    const from = join(root, path);
    if (!existsSync(from)) return;
    mkdirSync(dirname(join(target, path)), { recursive: true });
    cpSync(from, join(target, path), { recursive: true });
  };
  for (const file of [
    'package.json',
    'pnpm-lock.yaml',
    'pnpm-workspace.yaml',
    '.npmrc',
    'supergraph.graphql',
  ]) {
    copy(file);
  }
  // Every workspace manifest, so the lockfile matches the workspace; only the deployable ones get code.
  for (const manifest of workspaceManifests()) copy(manifest);
  const packages = deployablePackages(root);
  for (const pkg of packages) {
    const dir = relative(root, pkg);
    if (!existsSync(join(pkg, 'dist'))) throw new Error(`${dir}/dist is missing: run \`pnpm build\` first`);
    copy(`${dir}/dist`);
    for (const file of RUNTIME_FILES) copy(`${dir}/${file}`);
  }
  execFileSync(
    'pnpm',
    [
      'install',
      '--prod',
      '--frozen-lockfile',
      '--prefer-offline',
      '--config.confirmModulesPurge=false',
      '--reporter=silent',
      '--filter-prod',
      '@coperto/gateway...',
    ],
    { cwd: target, stdio: 'inherit', env: { ...process.env, CI: 'true' } },
  );
}

function workspaceManifests(): string[] {
  const dirs = ['gateway', 'test'];
  for (const parent of ['subgraphs', 'packages']) {
    for (const entry of readdirSync(join(root, parent), { withFileTypes: true })) {
      if (entry.isDirectory()) dirs.push(`${parent}/${entry.name}`);
    }
  }
  return dirs.map((dir) => `${dir}/package.json`).filter((file) => existsSync(join(root, file)));
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename)) {
  const target = process.argv[2];
  if (!target) {
    console.error('usage: tsx scripts/runtime-tree.ts <dir>');
    process.exit(2);
  }
  layOutRuntimeTree(resolve(target));
  console.log(`runtime tree laid out in ${target}`);
}
