import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { createTokenVerifier, EMBEDDED_DEV_SECRET } from '@coperto/auth';

const run = promisify(execFile);
const root = resolve(import.meta.dirname, '..');

describe('pnpm token (the dev-token command)', () => {
  const token = async (args: string[], env: Record<string, string> = {}) =>
    (
      await run(process.execPath, ['--import', 'tsx', 'scripts/dev-token.ts', ...args], {
        cwd: root,
        env: { PATH: process.env.PATH ?? '', ...env },
      })
    ).stdout.trim();

  it('mints a token the embedded mode accepts, for the tenant asked, admin when asked', async () => {
    const verifier = createTokenVerifier({ kind: 'secret', secret: EMBEDDED_DEV_SECRET });
    const plain = await verifier.verify(await token(['--tenant', 'demo']));
    expect(plain).toMatchObject({ tenantId: 'demo', isAdmin: false });
    const admin = await verifier.verify(await token(['--tenant', 'trattoria_1', '--admin']));
    expect(admin).toMatchObject({ tenantId: 'trattoria_1', isAdmin: true });
  });

  it('signs with JWT_SECRET when it is set', async () => {
    const secret = 'a-project-secret-that-is-long-enough-1234';
    const minted = await token(['--tenant', 'demo'], { JWT_SECRET: secret });
    await expect(createTokenVerifier({ kind: 'secret', secret }).verify(minted)).resolves.toMatchObject({
      tenantId: 'demo',
    });
    await expect(
      createTokenVerifier({ kind: 'secret', secret: EMBEDDED_DEV_SECRET }).verify(minted),
    ).rejects.toThrow();
  });

  it('refuses a tenant id that could not be one', async () => {
    await expect(token(['--tenant', 'a.b'])).rejects.toMatchObject({ code: 2 });
  });
});
