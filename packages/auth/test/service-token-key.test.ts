import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  AuthOptionsError,
  SERVICE_TOKEN_KEY_FILE,
  loadOrCreateEmbeddedSecret,
  resolveServiceTokenKey,
} from '../src/index.js';
import { OTHER_SECRET, SECRET } from './helpers.js';

describe('the service-token key', () => {
  const dirs: string[] = [];
  const fresh = () => {
    const dir = mkdtempSync(join(tmpdir(), 'coperto-service-key-'));
    dirs.push(dir);
    return join(dir, 'data');
  };
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it('embedded without a setting: created in DATA_DIR (0600) on the first start, reused, not the JWT secret', () => {
    const dataDir = fresh();
    const staff = loadOrCreateEmbeddedSecret(dataDir).secret;
    const settings = { configured: undefined, mode: 'embedded' as const, dataDir, staffSecret: staff };
    const first = resolveServiceTokenKey(settings);
    expect(first.embedded?.created).toBe(true);
    expect(first.embedded?.path).toBe(join(dataDir, SERVICE_TOKEN_KEY_FILE));
    expect(statSync(join(dataDir, SERVICE_TOKEN_KEY_FILE)).mode & 0o777).toBe(0o600);
    expect(Buffer.from(first.secret, 'base64url')).toHaveLength(32);
    expect(first.secret).not.toBe(staff);
    const again = resolveServiceTokenKey(settings);
    expect(again).toMatchObject({ secret: first.secret, embedded: { created: false } });
  });

  it('the setting wins in both modes', () => {
    for (const mode of ['embedded', 'distributed'] as const) {
      const key = resolveServiceTokenKey({
        configured: OTHER_SECRET,
        mode,
        dataDir: fresh(),
        staffSecret: SECRET,
      });
      expect(key).toEqual({ secret: OTHER_SECRET, embedded: undefined });
    }
  });

  it('distributed mode refuses to start without one', () => {
    expect(() =>
      resolveServiceTokenKey({
        configured: undefined,
        mode: 'distributed',
        dataDir: fresh(),
        staffSecret: SECRET,
      }),
    ).toThrow(/SERVICE_TOKEN_SECRET is required/);
  });

  it('refuses a short key and the staff secret itself', () => {
    const dataDir = fresh();
    expect(() =>
      resolveServiceTokenKey({ configured: 'short', mode: 'distributed', dataDir, staffSecret: SECRET }),
    ).toThrow(AuthOptionsError);
    expect(() =>
      resolveServiceTokenKey({ configured: SECRET, mode: 'distributed', dataDir, staffSecret: SECRET }),
    ).toThrow(/must differ/);
  });
});
