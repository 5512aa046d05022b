import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePorts, killOnExit, mintToken, newTenantId } from '@coperto/testkit';
import { layOutRuntimeTree } from '../scripts/runtime-tree.js';

const repoRoot = resolve(import.meta.dirname, '..');

/** Every file below `dir` (node_modules excluded), relative to it. */
function filesBelow(dir: string, prefix = ''): string[] {
  return readdirSync(join(dir, prefix), { withFileTypes: true }).flatMap((entry) => {
    const path = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.name === 'node_modules') return [];
    return entry.isDirectory() ? filesBelow(dir, path) : [path];
  });
}

/**
 * What the Dockerfile's runtime stage runs: `pnpm build`, then scripts/runtime-tree.ts (manifests, dist/, run-time
 * files, production dependencies only), then `node --conditions=compiled gateway/dist/index.js` — no tsx.
 */
describe('the compiled production build', () => {
  const tree = mkdtempSync(join(tmpdir(), 'coperto-runtime-'));
  const dataDir = mkdtempSync(join(tmpdir(), 'coperto-runtime-data-'));
  const secret = randomBytes(32).toString('base64url');
  let child: ChildProcess;
  let output = '';
  let ports: number[];

  beforeAll(async () => {
    execFileSync(process.execPath, ['--import', 'tsx', join(repoRoot, 'scripts/build.ts')], {
      cwd: repoRoot,
      stdio: 'pipe',
    });
    layOutRuntimeTree(tree);
    ports = await freePorts(3);
    child = spawn(process.execPath, ['--conditions=compiled', 'gateway/dist/index.js'], {
      cwd: tree,
      env: {
        PATH: process.env.PATH ?? '',
        HOST: '127.0.0.1',
        PORT: String(ports[0]),
        HEALTH_PORT: String(ports[1]),
        METRICS_PORT: String(ports[2]),
        DATA_DIR: dataDir,
        JWT_SECRET: secret,
        LOG_LEVEL: 'info',
        NODE_ENV: 'production',
        APOLLO_TELEMETRY_DISABLED: '1',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    killOnExit(child);
    child.stdout?.on('data', (c: Buffer) => (output += c.toString()));
    child.stderr?.on('data', (c: Buffer) => (output += c.toString()));
    const deadline = Date.now() + 60_000;
    for (;;) {
      if (child.exitCode !== null) throw new Error(`exited with ${child.exitCode}:\n${output}`);
      const ready = await fetch(`http://127.0.0.1:${ports[1]}/public/health/ready`).catch(() => undefined);
      if (ready?.status === 200) break;
      if (Date.now() > deadline) throw new Error(`not ready:\n${output}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  });

  afterAll(() => {
    if (child && child.exitCode === null) child.kill('SIGKILL');
    rmSync(tree, { recursive: true, force: true });
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('holds compiled code and production dependencies only', () => {
    const files = filesBelow(tree);
    expect(files).toContain('gateway/dist/index.js');
    expect(files).toContain('subgraphs/tavolo/schema.graphql');
    expect(files).toContain('gateway/public/floor-plan/index.html');
    expect(files.filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'))).toEqual([]);
    const installed = readdirSync(join(tree, 'node_modules/.pnpm'));
    // Build-time only: the developer pages' browser files are copied into dist/vendor/, their packages are not.
    expect(files).toContain('gateway/dist/vendor/scalar.js');
    expect(files).toContain('gateway/dist/vendor/graphiql.js');
    for (const devTool of [
      'tsx',
      'typescript',
      'vitest',
      'prettier',
      'esbuild',
      'graphiql',
      'react',
      'vue',
    ]) {
      expect(installed.filter((entry) => entry.startsWith(`${devTool}@`))).toEqual([]);
    }
    expect(existsSync(join(tree, 'gateway/node_modules/@apollo/gateway'))).toBe(true);
  });

  it('runs each process from its bundle, with lmdb the only package loaded from node_modules', () => {
    for (const entry of ['gateway/dist/index.js', 'subgraphs/tavolo/dist/index.js']) {
      const source = readFileSync(join(tree, entry), 'utf8');
      expect(source, entry).not.toMatch(
        /(?:\bfrom\s*|\bimport\s*\(\s*)["'](?:@coperto|graphql|fastify|@apollo)\b/,
      );
      expect(source, entry).toMatch(/from\s*["'](?:\.\.\/)+packages\/store\/node_modules\/lmdb\//);
    }
    // The per-file build the bundle is made from stays beside it (bench scenario 9's baseline).
    expect(filesBelow(tree)).toContain('gateway/dist/unbundled.js');
  });

  it('starts the embedded service and answers through REST', async () => {
    const token = await mintToken({ tenantId: newTenantId(), secret });
    const base = `http://127.0.0.1:${ports[0]}`;
    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    const created = await fetch(`${base}/api/tavoli`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ name: 'T1', seats: 4 }),
    });
    expect(created.status).toBe(201);
    const list = await fetch(`${base}/api/tavoli`, { headers });
    expect(list.status).toBe(200);
    expect(((await list.json()) as Array<{ name: string }>).map((t) => t.name)).toEqual(['T1']);
    const page = await fetch(`${base}/floor-plan/vendor/graphql-ws.js`);
    expect(page.status).toBe(200);
    const docsScript = await fetch(`${base}/docs/scalar.js`);
    expect(docsScript.status).toBe(200);
    expect((await docsScript.arrayBuffer()).byteLength).toBeGreaterThan(1_000_000);
  });

  it('stops on SIGTERM with exit code 0', async () => {
    const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  });
});
