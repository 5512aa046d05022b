import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..');
const read = (path: string) => readFileSync(join(root, path), 'utf8');

/** The NODE_OPTIONS value a file sets (Dockerfile `ENV` line or a shell default `${NODE_OPTIONS:-…}`). */
function nodeOptionsIn(text: string): string | undefined {
  return (
    /^\s*NODE_OPTIONS="([^"]+)"/m.exec(text)?.[1] ??
    /^\s*NODE_OPTIONS=(\S+)/m.exec(text)?.[1] ??
    /NODE_OPTIONS="\$\{NODE_OPTIONS:-([^}]*)\}"/.exec(text)?.[1]
  );
}

describe('the runtime flags of the compiled processes', () => {
  it('are the same in the images and in the one-command start', () => {
    const image = nodeOptionsIn(read('Dockerfile'));
    const start = nodeOptionsIn(read('scripts/start.sh'));
    expect(image).toMatch(/--max-semi-space-size=\d+/);
    // Below 2048: V8 grows the heap by up to 4× its live size when its limit is 2 GB or more.
    expect(Number(/--max-old-space-size=(\d+)/.exec(image ?? '')?.[1])).toBeLessThan(2048);
    expect(start).toBe(image);
  });

  it('are what the bench runs the services with', () => {
    const image = nodeOptionsIn(read('Dockerfile'));
    expect(read('bench/src/processes.ts')).toContain(`NODE_OPTIONS: process.env.NODE_OPTIONS ?? '${image}'`);
  });
});
