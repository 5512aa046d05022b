import { chmodSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  EmbeddedSecretMissingError,
  embeddedSecretPath,
  loadOrCreateEmbeddedSecret,
  readEmbeddedSecret,
} from '../src/index.js';

describe('the embedded secret in DATA_DIR', () => {
  const dirs: string[] = [];
  const fresh = () => {
    const dir = mkdtempSync(join(tmpdir(), 'coperto-secret-'));
    dirs.push(dir);
    return join(dir, 'data'); // not created yet, as on a first start
  };
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it('is created on the first start: 256 random bits, mode 0600; then reused', () => {
    const dataDir = fresh();
    const first = loadOrCreateEmbeddedSecret(dataDir);
    expect(first.created).toBe(true);
    expect(first.path).toBe(embeddedSecretPath(dataDir));
    expect(Buffer.from(first.secret, 'base64url')).toHaveLength(32);
    expect(statSync(first.path).mode & 0o777).toBe(0o600);
    expect(readFileSync(first.path, 'utf8').trim()).toBe(first.secret);

    const again = loadOrCreateEmbeddedSecret(dataDir);
    expect(again).toEqual({ ...first, created: false });
    expect(readEmbeddedSecret(dataDir)).toBe(first.secret);
    expect(loadOrCreateEmbeddedSecret(fresh()).secret).not.toBe(first.secret);
  });

  it('is not invented by a reader: a missing file says how to get one', () => {
    expect(() => readEmbeddedSecret(fresh())).toThrow(EmbeddedSecretMissingError);
    expect(() => readEmbeddedSecret(fresh())).toThrow(/start Coperto once/);
  });

  it('is refused when other users can read it', () => {
    const dataDir = fresh();
    const { path } = loadOrCreateEmbeddedSecret(dataDir);
    chmodSync(path, 0o644);
    expect(() => readEmbeddedSecret(dataDir)).toThrow(/chmod 600/);
  });
});
