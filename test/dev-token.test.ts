import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { createTokenVerifier, loadOrCreateEmbeddedSecret } from '@coperto/auth';

const run = promisify(execFile);
const root = resolve(import.meta.dirname, '..');

describe('pnpm token (the dev-token command)', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'coperto-token-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  const token = async (args: string[], env: Record<string, string> = {}) =>
    (
      await run(process.execPath, ['--import', 'tsx', 'scripts/dev-token.ts', ...args], {
        cwd: root,
        env: { PATH: process.env.PATH ?? '', ...env },
      })
    ).stdout.trim();

  it('refuses, saying how to get a secret, when embedded mode never started in DATA_DIR', async () => {
    const empty = join(dataDir, 'never-started');
    await expect(token(['--tenant', 'demo'], { DATA_DIR: empty })).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringMatching(/No token secret at .*jwt-secret: start Coperto once/),
    });
  });

  it('signs with the secret embedded mode keeps in DATA_DIR, for the tenant asked, admin when asked', async () => {
    const { secret } = loadOrCreateEmbeddedSecret(dataDir);
    const verifier = createTokenVerifier({ kind: 'secret', secret });
    const plain = await verifier.verify(await token(['--tenant', 'demo'], { DATA_DIR: dataDir }));
    expect(plain).toMatchObject({ tenantId: 'demo', isAdmin: false });
    const admin = await verifier.verify(
      await token(['--tenant', 'trattoria_1', '--admin'], { DATA_DIR: dataDir }),
    );
    expect(admin).toMatchObject({ tenantId: 'trattoria_1', isAdmin: true });
  });

  it('signs with JWT_SECRET when it is set', async () => {
    const secret = 'a-project-secret-that-is-long-enough-1234';
    const minted = await token(['--tenant', 'demo'], { JWT_SECRET: secret, DATA_DIR: dataDir });
    await expect(createTokenVerifier({ kind: 'secret', secret }).verify(minted)).resolves.toMatchObject({
      tenantId: 'demo',
    });
    const embedded = loadOrCreateEmbeddedSecret(dataDir).secret;
    await expect(createTokenVerifier({ kind: 'secret', secret: embedded }).verify(minted)).rejects.toThrow();
  });

  it('refuses a tenant id that could not be one', async () => {
    await expect(token(['--tenant', 'a.b'])).rejects.toMatchObject({ code: 2 });
  });
});
