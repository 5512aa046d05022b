// The architecture rules of eslint.config.js bite: each one reports a small in-memory snippet that crosses its
// boundary, placed (by file path) where the boundary applies, and stays silent where the code is allowed.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ESLint } from 'eslint';
import { afterAll, describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..');
const configFile = join(root, 'eslint.config.js');

// Import cycles have their own test (they need files on disk); elsewhere the cycle rule would only walk the
// imported modules' graphs and slow every snippet down.
const eslint = new ESLint({
  cwd: root,
  overrideConfigFile: configFile,
  overrideConfig: { rules: { 'import-x/no-cycle': 'off' } },
});

/** The rules that report `code` as if it were the file at `path` (relative to the repository root). */
async function rulesReporting(path: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: join(root, path) });
  const messages = result?.messages ?? [];
  for (const m of messages) if (m.fatal) throw new Error(`${path}: ${m.message}`);
  return messages.map((m) => m.ruleId ?? '');
}

describe('configuration is read only in config.ts', () => {
  it('reports process.env in a service module and in a shared package', async () => {
    expect(await rulesReporting('gateway/src/x.ts', 'export const p = process.env.PORT;')).toEqual([
      'no-restricted-properties',
    ]);
    expect(
      await rulesReporting('packages/bus/src/x.ts', "export const { NATS_URL } = process['env'];"),
    ).toEqual(['no-restricted-properties']);
    expect(
      await rulesReporting('subgraphs/sala/src/x.ts', "import { env } from 'node:process';\nexport { env };"),
    ).toEqual(['no-restricted-imports']);
    expect(
      await rulesReporting('packages/store/src/x.ts', 'export const d = globalThis.process.env.DATA_DIR;'),
    ).toEqual(['no-restricted-syntax']);
  });

  it("allows it in each process's config.ts, packages/config, tests and scripts", async () => {
    const code = 'export const p = process.env.PORT;';
    for (const path of [
      'gateway/src/config.ts',
      'subgraphs/tavolo/src/config.ts',
      'packages/config/src/x.ts',
      'test/x.ts',
      'scripts/x.ts',
      'packages/store/test/x.test.ts',
    ])
      expect(await rulesReporting(path, code), path).toEqual([]);
  });
});

describe('a package imports only what it declares', () => {
  it('reports a workspace package and an npm package missing from the package.json', async () => {
    // @coperto/errors declares graphql only; sala declares neither yaml nor the gateway's @graphql-tools.
    expect(
      await rulesReporting('packages/errors/src/x.ts', "export { DocumentStore } from '@coperto/store';"),
    ).toEqual(['import-x/no-extraneous-dependencies']);
    expect(
      await rulesReporting('subgraphs/sala/src/x.ts', "import { parse } from 'yaml';\nexport { parse };"),
    ).toEqual(['import-x/no-extraneous-dependencies']);
  });

  it('accepts declared ones, type imports included', async () => {
    expect(
      await rulesReporting('subgraphs/sala/src/x.ts', "import type { DocumentStore } from '@coperto/store';"),
    ).toEqual([]);
  });
});

describe('boundaries between subgraphs, the gateway and packages', () => {
  it('reports a subgraph importing another subgraph', async () => {
    expect(
      await rulesReporting(
        'subgraphs/sala/src/x.ts',
        "export * from '../../tavolo/src/tables/tavolo-record.js';",
      ),
    ).toEqual(['import-x/no-restricted-paths']);
  });

  it('reports a subgraph importing the gateway', async () => {
    expect(
      await rulesReporting(
        'subgraphs/sala/src/x.ts',
        "export * from '../../../gateway/src/http/request-id.js';",
      ),
    ).toEqual(['import-x/no-restricted-paths']);
  });

  it('reports a package importing a subgraph or the gateway', async () => {
    expect(
      await rulesReporting(
        'packages/bus/src/x.ts',
        "export * from '../../../subgraphs/sala/src/sala-record.js';",
      ),
    ).toEqual(['import-x/no-restricted-paths']);
    expect(
      await rulesReporting(
        'packages/bus/src/x.ts',
        "export * from '../../../gateway/src/http/request-id.js';",
      ),
    ).toEqual(['import-x/no-restricted-paths']);
  });

  it('keeps @coperto/domain pure: errors only', async () => {
    expect(
      await rulesReporting('packages/domain/src/x.ts', "export * from '../../config/src/index.js';"),
    ).toEqual(['import-x/no-restricted-paths']);
    expect(
      await rulesReporting('packages/domain/src/x.ts', "export { ValidationError } from '@coperto/errors';"),
    ).toEqual([]);
  });

  it('lets the gateway host subgraphs, and a subgraph test host several', async () => {
    expect(
      await rulesReporting('gateway/src/x.ts', "export * from '../../subgraphs/sala/src/sala-record.js';"),
    ).toEqual([]);
    expect(
      await rulesReporting(
        'subgraphs/tavolo/test/x.test.ts',
        "export * from '../../sala/src/sala-record.js';",
      ),
    ).toEqual([]);
  });
});

describe('no import cycles', () => {
  const dir = mkdtempSync(join(tmpdir(), 'coperto-lint-cycle-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('reports two modules importing each other, not a one-way import', async () => {
    writeFileSync(
      join(dir, 'a.ts'),
      "import { b } from './b.js';\nexport const a = (): number => b() + 1;\n",
    );
    writeFileSync(
      join(dir, 'b.ts'),
      "import { a } from './a.js';\nexport const b = (): number => a() - 1;\n",
    );
    writeFileSync(join(dir, 'c.ts'), "import { a } from './a.js';\nexport const c = (): number => a();\n");
    // The files live outside the repository (ESLint's base path is then `cwd`); the cycle rule alone runs.
    const cycles = new ESLint({
      cwd: dir,
      overrideConfigFile: configFile,
      ruleFilter: ({ ruleId }) => ruleId === 'import-x/no-cycle',
    });
    const results = await cycles.lintFiles([join(dir, 'a.ts'), join(dir, 'c.ts')]);
    const rules = (file: string) =>
      results.find((r) => r.filePath === join(dir, file))?.messages.map((m) => m.ruleId);
    expect(rules('a.ts')).toEqual(['import-x/no-cycle']);
    expect(rules('c.ts')).toEqual([]);
  });
});
