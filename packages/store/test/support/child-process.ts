import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll } from 'vitest';

/** A fresh temporary directory, removed after the file's tests. */
export function temporaryDirectories(): () => Promise<string> {
  const directories: string[] = [];
  afterAll(async () => {
    await Promise.all(directories.map((directory) => rm(directory, { recursive: true, force: true })));
  });
  return async () => {
    const directory = await mkdtemp(join(tmpdir(), 'coperto-store-'));
    directories.push(directory);
    return directory;
  };
}

/** `node --import tsx test/fixtures/<fixture> ...args`, its stdout piped. */
export function startFixture(fixture: string, args: string[]): ChildProcessWithoutNullStreams {
  const path = fileURLToPath(new URL(`../fixtures/${fixture}`, import.meta.url));
  return spawn(process.execPath, ['--import', 'tsx', path, ...args], { stdio: ['pipe', 'pipe', 'pipe'] });
}

/** Runs a fixture to completion (bounded by the test timeout). */
export function runFixture(
  fixture: string,
  args: string[],
): Promise<{ signal: NodeJS.Signals | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = startFixture(fixture, args);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('error', reject);
    child.once('close', (_code, signal) => resolve({ signal, stdout, stderr }));
  });
}
