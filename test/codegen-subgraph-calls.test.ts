import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { generate } from '@graphql-codegen/cli';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { allSubgraphCalls, subgraphCallPaths, subgraphCalls } from '../scripts/codegen-subgraph-calls.js';

const repository = resolve(import.meta.dirname, '..');

/**
 * The codegen of one caller's calls, run as `pnpm codegen` runs it, in a scratch copy holding the called
 * subgraph's real schema and the given document.
 */
describe('the calls between subgraphs in codegen', () => {
  let root: string;
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'subgraph-calls-'));
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  const place = (relative: string, content: string) => {
    mkdirSync(dirname(join(root, relative)), { recursive: true });
    writeFileSync(join(root, relative), content);
  };
  const run = (caller: string, called: string, document: string) => {
    const paths = subgraphCallPaths(caller, called);
    mkdirSync(dirname(join(root, paths.schema)), { recursive: true });
    copyFileSync(join(repository, paths.schema), join(root, paths.schema));
    place(paths.documents, document);
    return generate({ generates: subgraphCalls(caller, called, root), silent: true }, true).then(() =>
      readFileSync(join(root, paths.output), 'utf8'),
    );
  };

  it("types a valid document by the called subgraph's schema", async () => {
    const output = await run(
      'prenotazione',
      'tavolo',
      'query Seats($id: ID!) { tavolo(id: $id) { id seats } }',
    );
    expect(output).toContain('export type SeatsQuery = { tavolo: { id: string, seats: number } | null };');
    expect(output).toContain('export type SeatsQueryVariables = Exact<{\n  id: string | number;\n}>;');
    expect(output).toMatch(
      /export const SeatsDocument = .* as unknown as DocumentNode<SeatsQuery, SeatsQueryVariables>;/,
    );
  });

  it('validates an entity lookup: the schema is the one the subgraph serves, with _entities', async () => {
    const output = await run(
      'prenotazione',
      'tavolo',
      'query Exist($r: [_Any!]!) { _entities(representations: $r) { ... on Tavolo { id } } }',
    );
    expect(output).toContain('r: Array<Record<string, unknown>> | Record<string, unknown>;');
  });

  it('fails on a field the called subgraph does not have', async () => {
    await expect(
      run('prenotazione', 'tavolo', 'query Seats($id: ID!) { tavolo(id: $id) { id posti } }'),
    ).rejects.toThrow(/Cannot query field "posti" on type "Tavolo"/);
  });

  it("fails on a variable the called subgraph's argument does not accept", async () => {
    await expect(
      run('tavolo', 'sala', 'query Size($id: String!) { sala(id: $id) { width } }'),
    ).rejects.toThrow(/Variable "\$id" of type "String!" used in position expecting type "ID!"/);
  });

  it('fails on a document validated against the wrong subgraph (sala has no tavoli)', async () => {
    await expect(run('tavolo', 'sala', 'query T { tavoli { id } }')).rejects.toThrow(
      /Cannot query field "tavoli" on type "Query"/,
    );
  });

  it('has one target per calls file of the repository, each named after the called subgraph', () => {
    const outputs = Object.keys(allSubgraphCalls(repository)).map((output) =>
      output.slice(repository.length + 1),
    );
    expect(outputs).toContain('subgraphs/prenotazione/src/generated/tavolo-calls.ts');
    expect(outputs).toContain('subgraphs/tavolo/src/generated/sala-calls.ts');
    for (const output of outputs) expect(output).toMatch(/^subgraphs\/\w+\/src\/generated\/\w+-calls\.ts$/);
  });
});
