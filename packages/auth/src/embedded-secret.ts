import { randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** File in DATA_DIR holding the secret embedded mode signs and verifies tokens with when no key is configured. */
export const EMBEDDED_SECRET_FILE = 'jwt-secret';

/** 256 bits, base64url: 43 characters, over the 32 bytes HS256 needs. */
const SECRET_BYTES = 32;

export interface EmbeddedSecret {
  secret: string;
  /** Where it is kept (mode 0600). */
  path: string;
  /** True when this call created it (first start). */
  created: boolean;
}

/** No embedded secret in `dataDir` yet (the service has never been started there without a key). */
export class EmbeddedSecretMissingError extends Error {
  constructor(path: string) {
    super(
      `No token secret at ${path}: start Coperto once (bash scripts/start.sh) so it creates one, ` +
        'or set JWT_SECRET',
    );
    this.name = 'EmbeddedSecretMissingError';
  }
}

/** `file`: the secret's file name in DATA_DIR (the service-token key keeps its own, service-token-key.ts). */
export function embeddedSecretPath(dataDir: string, file = EMBEDDED_SECRET_FILE): string {
  return join(dataDir, file);
}

/**
 * The secret of an embedded installation: read from `<dataDir>/jwt-secret`, or, on the first start, a random
 * 256-bit secret written there with mode 0600 (exclusively: two processes starting at once agree on one).
 * Nothing in the source code is ever a key.
 */
export function loadOrCreateEmbeddedSecret(dataDir: string, file = EMBEDDED_SECRET_FILE): EmbeddedSecret {
  const path = embeddedSecretPath(dataDir, file);
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(SECRET_BYTES).toString('base64url');
  try {
    writeFileSync(path, `${secret}\n`, { mode: 0o600, flag: 'wx' });
    chmodSync(path, 0o600); // the umask cannot widen it, but be explicit
    return { secret, path, created: true };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  return { secret: readEmbeddedSecret(dataDir, file), path, created: false };
}

/** Reads the embedded secret (for `pnpm token`); EmbeddedSecretMissingError when there is none yet. */
export function readEmbeddedSecret(dataDir: string, file = EMBEDDED_SECRET_FILE): string {
  const path = embeddedSecretPath(dataDir, file);
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw new EmbeddedSecretMissingError(path);
    throw error;
  }
  const secret = text.trim();
  if (secret.length < 32) throw new Error(`${path} does not hold a secret of at least 32 characters`);
  if ((statSync(path).mode & 0o077) !== 0) {
    throw new Error(`${path} is readable by other users: chmod 600 it (or delete it to get a new secret)`);
  }
  return secret;
}
