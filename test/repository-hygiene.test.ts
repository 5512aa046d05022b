import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..');
const tracked = execFileSync('git', ['ls-files', '-z'], { cwd: root, encoding: 'utf8' })
  .split('\0')
  .filter((path) => path !== '' && path !== 'pnpm-lock.yaml' && !/\.(png|jpe?g|gif|ico|woff2?)$/.test(path));

/** Lines of tracked text files matching a pattern, as `path:line: text`. */
function linesMatching(pattern: RegExp): string[] {
  const found: string[] = [];
  for (const path of tracked) {
    let text: string;
    try {
      text = readFileSync(join(root, path), 'utf8');
    } catch {
      continue; // deleted in the work tree
    }
    text.split('\n').forEach((line, i) => {
      if (pattern.test(line)) found.push(`${path}:${i + 1}: ${line.trim().slice(0, 120)}`);
    });
  }
  return found;
}

describe('the repository stands alone', () => {
  it('points at no file outside itself (the spec and design folder beside a checkout)', () => {
    expect(linesMatching(/\.\.\/shared\b|\bshared\/(spec|research|DESIGN|TESTING)/)).toEqual([]);
  });

  it('holds no machine paths', () => {
    expect(linesMatching(/\/work\/(main|wt|shared)\b|\/root\/|\/home\/[a-z]/)).toEqual([]);
  });

  it('can find what it looks for (the scan reads the tracked files)', () => {
    expect(tracked).toContain('package.json');
    expect(linesMatching(/"name": "coperto"/).length).toBeGreaterThan(0);
  });
});
