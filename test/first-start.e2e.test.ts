// A safe first start: no key in the source is ever accepted. Embedded mode without a configured key creates a
// random secret in DATA_DIR (0600) and reuses it; a token signed with any string of the repository's tracked
// files is a 401 there; distributed mode does not start without a key.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { embeddedSecretPath, signToken } from '@coperto/auth';
import { readGatewayConfig } from '@coperto/gateway';
import { readSubgraphConfig } from '@coperto/server-kit';
import { serverUrls, uniqueName } from '@coperto/testkit';
import { startEmbedded, startProcess, type Stack } from './support/stack.js';

const root = resolve(import.meta.dirname, '..');
/** The public development secret earlier versions accepted when no key was configured. */
const OLD_DEV_SECRET = ['coperto', 'embedded', 'dev', 'secret', 'do', 'not', 'use', 'in', 'production'].join(
  '-',
);

/** Every quoted string literal of 16 to 256 characters in the tracked files: anything that could be a key. */
function repositoryStrings(): string[] {
  const files = execFileSync('git', ['ls-files', '-z'], { cwd: root, encoding: 'utf8' })
    .split('\0')
    .filter((file) => file && !file.endsWith('pnpm-lock.yaml'));
  const found = new Set<string>([OLD_DEV_SECRET]);
  for (const file of files) {
    let text: string;
    try {
      text = readFileSync(join(root, file), 'utf8');
    } catch {
      continue; // listed but absent (deleted in the work tree)
    }
    for (const match of text.matchAll(/'([^'\n]{16,256})'|"([^"\n]{16,256})"|`([^`\n]{16,256})`/g)) {
      found.add((match[1] ?? match[2] ?? match[3])!);
    }
    for (const match of text.matchAll(/\b[A-Z_]*SECRET[A-Z_]*\s*[:=]\s*["']?([^\s"'$]{16,256})/g)) {
      found.add(match[1]!);
    }
  }
  return [...found];
}

/** HS256 with `secret` as the key, whatever its length (an attacker is not bound by RFC 7518's minimum). */
function forge(secret: string, admin: boolean): Promise<string> {
  return new SignJWT({ tenantId: 'demo', ...(admin ? { roles: ['admin'] } : {}) })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject('attacker')
    .setIssuedAt()
    .setExpirationTime('1h')
    .sign(new TextEncoder().encode(secret));
}

describe('first start of embedded mode without a configured key (embedded)', () => {
  const parent = mkdtempSync(join(tmpdir(), 'coperto-first-start-'));
  const dataDir = join(parent, 'data');
  let stack: Stack;

  beforeAll(async () => {
    // JWT_SECRET empty = unset: this start has no key at all, as `bash scripts/start.sh` on a fresh machine.
    stack = await startEmbedded({ JWT_SECRET: '', DATA_DIR: dataDir });
  });
  afterAll(async () => {
    await stack?.close();
    rmSync(parent, { recursive: true, force: true });
  });

  it('refuses a token signed with any string found in the repository (401), admin or not', async () => {
    const strings = repositoryStrings();
    expect(strings).toContain(OLD_DEV_SECRET);
    expect(strings.length).toBeGreaterThan(100);
    const accepted: string[] = [];
    const batch = 32;
    for (let i = 0; i < strings.length; i += batch) {
      const answers = await Promise.all(
        strings.slice(i, i + batch).map(async (secret, j) => {
          const token = await forge(secret, (i + j) % 2 === 0);
          const answer = await fetch(`${stack.baseUrl}/api/tavoli`, {
            headers: { authorization: `Bearer ${token}` },
          });
          await answer.arrayBuffer();
          return { secret, status: answer.status };
        }),
      );
      accepted.push(...answers.filter((a) => a.status !== 401).map((a) => `${a.status} ${a.secret}`));
    }
    expect(accepted).toEqual([]);
  });

  it('created a 256-bit secret in DATA_DIR with mode 0600, and accepts tokens signed with it', async () => {
    const path = embeddedSecretPath(dataDir);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    const secret = readFileSync(path, 'utf8').trim();
    expect(Buffer.from(secret, 'base64url')).toHaveLength(32);
    const token = await signToken({ secret, tenantId: 'demo' });
    expect((await stack.api('GET', '/api/tavoli', { token })).status).toBe(200);
  });

  it('reuses the same secret on the next start: tokens stay valid across restarts', async () => {
    const secret = readFileSync(embeddedSecretPath(dataDir), 'utf8').trim();
    const token = await signToken({ secret, tenantId: 'demo' });
    await stack.close();
    stack = await startEmbedded({ JWT_SECRET: '', DATA_DIR: dataDir });
    expect(readFileSync(embeddedSecretPath(dataDir), 'utf8').trim()).toBe(secret);
    expect((await stack.api('GET', '/api/tavoli', { token })).status).toBe(200);
  });
});

describe('distributed mode without a configured key (distributed)', () => {
  const noKey = { JWT_SECRET: '', JWT_PUBLIC_KEY: '', JWT_JWKS_URL: '' };
  const message = /JWT_SECRET: missing: distributed mode needs a token key/;

  it('does not load the gateway or a subgraph configuration', () => {
    expect(() => readGatewayConfig({ COPERTO_MODE: 'distributed', ...noKey })).toThrow(message);
    expect(() => readSubgraphConfig({ ...noKey })).toThrow(message);
    expect(() => readGatewayConfig({ COPERTO_MODE: 'embedded', ...noKey })).not.toThrow();
  });

  it('a subgraph process started without a key exits, saying why', async () => {
    const { mongoUrl, natsUrl, redisUrl } = serverUrls();
    await expect(
      startProcess('tavolo', 'subgraphs/tavolo/src/index.ts', {
        MONGO_URL: mongoUrl,
        MONGO_DATABASE: uniqueName('first-start'),
        NATS_URL: natsUrl,
        REDIS_URL: redisUrl,
        ...noKey,
      }),
    ).rejects.toThrow(message);
  });
});
