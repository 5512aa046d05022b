import { existsSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';

/** Workspace packages that run in production (the test kit and the e2e package never do). */
const TEST_ONLY = new Set(['packages/testkit']);

/** Absolute directories of the deployable packages: the gateway, every subgraph, every shared package. */
export function deployablePackages(root: string): string[] {
  const under = (parent: string) =>
    readdirSync(join(root, parent), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => `${parent}/${entry.name}`);
  return ['gateway', ...under('subgraphs'), ...under('packages')]
    .filter((dir) => !TEST_ONLY.has(dir))
    .filter((dir) => existsSync(join(root, dir, 'src')))
    .map((dir) => join(root, dir));
}

/** Absolute directories of the packages that are processes (src/index.ts): the gateway and every subgraph. */
export function processPackages(root: string): string[] {
  return deployablePackages(root).filter(
    (dir) => !relative(root, dir).startsWith('packages') && existsSync(join(dir, 'src', 'index.ts')),
  );
}
