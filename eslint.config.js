// The lint rules keep the architecture, not the style (prettier formats, tsc checks types): each rule below
// names the boundary it keeps. docs/architecture.md ("Packages and allowed imports") draws the same picture.
// `pnpm lint` runs ESLint on these rules and knip (knip.json) for declared dependencies nobody imports.
import { readdirSync } from 'node:fs';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import { defineConfig, globalIgnores } from 'eslint/config';
import importX from 'eslint-plugin-import-x';
import tseslint from 'typescript-eslint';

const root = import.meta.dirname;
const subgraphs = readdirSync(new URL('./subgraphs/', import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

/** Trees where reading the environment is the point: tests, their harness, scripts and benchmarks. */
const toolTrees = [
  'test/**',
  'scripts/**',
  'bench/**',
  '**/bench/**',
  '**/test/**',
  '**/*.test.ts',
  'packages/testkit/**',
];

export default defineConfig([
  globalIgnores(['**/node_modules/', '**/dist/', '.cache/', '.data/', 'bench/']),
  {
    files: ['**/*.ts', '**/*.js'],
    languageOptions: { parser: tseslint.parser, ecmaVersion: 'latest', sourceType: 'module' },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    plugins: { 'import-x': importX },
    settings: {
      // Resolves `./x.js` to `./x.ts` and `@coperto/*` through the workspace links to their sources.
      'import-x/resolver-next': [createTypeScriptImportResolver({ project: `${root}/tsconfig.json` })],
      'import-x/extensions': ['.ts', '.js'],
    },
    rules: {
      // A package imports only what its own package.json declares (types included: the compiled image has
      // only declared dependencies, and pnpm links nothing else). Vitest, the workspace's one test runner, is
      // declared once at the root.
      'import-x/no-extraneous-dependencies': ['error', { includeTypes: true, whitelist: ['vitest'] }],

      // No import cycles, across packages too (workspace packages resolve to their sources). Type-only
      // imports do not count: they vanish at compile time.
      'import-x/no-cycle': ['error', { ignoreExternal: true }],

      'import-x/no-restricted-paths': [
        'error',
        {
          basePath: root,
          zones: [
            // A subgraph is its own service: it reaches another only through that one's GraphQL API
            // (SubgraphClient), never through its code. (Tests may host several subgraphs together.)
            ...subgraphs.map((name) => ({
              target: `./subgraphs/${name}/src`,
              from: subgraphs.filter((other) => other !== name).map((other) => `./subgraphs/${other}`),
              message: 'A subgraph calls another through its GraphQL API (SubgraphClient), not its code.',
            })),
            // Subgraphs do not know who hosts them.
            {
              target: './subgraphs',
              from: './gateway',
              message: 'Subgraphs never import the gateway.',
            },
            // Shared packages sit below every process: they never import a subgraph or the gateway.
            {
              target: './packages',
              from: ['./subgraphs', './gateway'],
              message: 'packages/ never import a subgraph or the gateway.',
            },
            // Domain rules are pure: no hosting, no storage, no I/O packages; errors only.
            {
              target: './packages/domain',
              from: './packages',
              except: ['./domain', './errors'],
              message: '@coperto/domain imports only @coperto/errors.',
            },
          ],
        },
      ],
    },
  },
  {
    // Configuration is read once per process, in its config.ts (through @coperto/config): everything else
    // receives values, so a process's settings are listed, validated and documented in one place.
    files: ['**/*.ts', '**/*.js'],
    ignores: ['gateway/src/config.ts', 'subgraphs/*/src/config.ts', 'packages/config/**', ...toolTrees],
    rules: {
      'no-restricted-properties': [
        'error',
        {
          object: 'process',
          property: 'env',
          message: "Read the environment only in the process's config.ts (via @coperto/config).",
        },
      ],
      'no-restricted-syntax': [
        'error',
        {
          selector: "MemberExpression[object.property.name='process'][property.name='env']",
          message: "Read the environment only in the process's config.ts (via @coperto/config).",
        },
      ],
      'no-restricted-imports': [
        'error',
        {
          paths: ['node:process', 'process'].map((name) => ({
            name,
            importNames: ['env'],
            message: "Read the environment only in the process's config.ts (via @coperto/config).",
          })),
        },
      ],
    },
  },
]);
