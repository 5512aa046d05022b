import { createRequire } from 'node:module';
import { defineConfig } from 'vitest/config';

// Node resolves `graphql` to its CommonJS build (the Apollo packages require() it); Vite would pick the
// `module` (.mjs) build for ESM imports, and two graphql instances cannot share a schema. One instance.
const graphqlMain = createRequire(new URL('./packages/server-kit/package.json', import.meta.url)).resolve(
  'graphql',
);

// Projects by file suffix:
//   unit         *.test.ts              in-process, no ports, embedded adapters
//   integration  *.integration.test.ts  real MongoDB-protocol, NATS and Redis servers
//   e2e          test/**/*.e2e.test.ts  the whole service through the gateway, both run modes
const exclude = ['**/node_modules/**', '.cache/**'];
const env = { APOLLO_TELEMETRY_DISABLED: '1', NODE_ENV: 'test' };

export default defineConfig({
  resolve: { alias: [{ find: /^graphql$/, replacement: graphqlMain }] },
  test: {
    globalSetup: ['packages/testkit/src/global-setup.ts'],
    env,
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['**/*.test.ts'],
          exclude: [...exclude, '**/*.integration.test.ts', '**/*.e2e.test.ts'],
          testTimeout: 15_000,
          // One module graph for all unit files instead of a fresh one per file: the 117 files share the
          // workspace's imports, which dominated (measured on 2 cores under load: 122 s → 61 s, imports
          // 41 s → 12 s). Unit tests hold no module state between files (fake timers are restored after each).
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          name: 'integration',
          include: ['**/*.integration.test.ts'],
          exclude,
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          include: ['**/*.e2e.test.ts'],
          // Every event an e2e test receives must match GET /asyncapi.json (gateway/test/support/event-contract.ts).
          setupFiles: ['test/support/event-contract-setup.ts'],
          exclude,
          // One process for every e2e file (vitest runs one file at a time on this 2-core machine anyway), so that
          // the files share one stack per mode (test/support/modes.ts) instead of starting 48 of them.
          isolate: false,
          testTimeout: 90_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
