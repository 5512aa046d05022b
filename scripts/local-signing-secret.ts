// The secret the local scripts (`pnpm token`, `pnpm seed`) sign with: JWT_SECRET when set, else the one embedded
// mode created in DATA_DIR (default .data, relative to where the service was started) on its first start.
import { EmbeddedSecretMissingError, readEmbeddedSecret } from '@coperto/auth';

export function localSigningSecret(env: NodeJS.ProcessEnv = process.env): string {
  if (env.JWT_SECRET) return env.JWT_SECRET;
  try {
    return readEmbeddedSecret(env.DATA_DIR?.trim() || '.data');
  } catch (error) {
    if (!(error instanceof EmbeddedSecretMissingError)) throw error;
    console.error(error.message);
    process.exit(1);
  }
}
