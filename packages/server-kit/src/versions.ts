import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

function packageVersion(name: string): string {
  try {
    return (JSON.parse(readFileSync(require.resolve(`${name}/package.json`), 'utf8')) as { version: string })
      .version;
  } catch {
    return 'unknown';
  }
}

/** The application version (root package.json) and the framework it runs on, for `/public/health/overview`. */
export const APP_VERSION: string =
  (
    JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as {
      version?: string;
    }
  ).version ?? '0.0.0';

export const FRAMEWORK_VERSION = `@apollo/subgraph ${packageVersion('@apollo/subgraph')}; graphql ${packageVersion('graphql')}; node ${process.version}`;
