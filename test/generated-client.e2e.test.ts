// A client generated from the served /openapi.json is one a developer can trust: openapi-typescript turns the
// document into types, and a small waiter app on openapi-fetch (test/generated-client/waiter-app.ts) compiles
// under `strict` with no non-null assertion and no cast, then runs a shift against the embedded service.
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import openapiTS, { astToString } from 'openapi-typescript';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mintToken, newTenantId } from '@coperto/testkit';
import { startStack } from './support/modes.js';
import type { Stack } from './support/stack.js';

const APP_DIR = resolve(import.meta.dirname, 'generated-client');
const APP = join(APP_DIR, 'waiter-app.ts');
/** Where the app imports the generated types from; served from memory to the compiler. */
const GENERATED = join(APP_DIR, 'coperto-api.d.ts');

const COMPILER_OPTIONS: ts.CompilerOptions = {
  strict: true,
  noUncheckedIndexedAccess: true,
  target: ts.ScriptTarget.ES2023,
  lib: ['lib.es2023.d.ts'],
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  types: ['node'],
  noEmit: true,
  skipLibCheck: true,
};

/**
 * The app as the test calls it. It is loaded by its URL: the repository's type check never sees it (it compiles
 * only against the types generated here, tsconfig.json excludes it), the compile below does.
 */
interface WaiterApp {
  waiterShift(baseUrl: string, token: string, day: string): Promise<ShiftReport>;
}
interface ShiftReport {
  tableId: string;
  tableStatus: string;
  lockHeldBy: string | undefined;
  booking: { id: string; codice: string; tableIds: string[]; assignment: string; state: string };
  synced: string[];
  batchCreated: string[];
}

let previous: ts.Program | undefined;

/** The compiler's errors for the app against `generated` (the types of a document), as text. */
function compileApp(generated: string): string[] {
  const host = ts.createCompilerHost(COMPILER_OPTIONS);
  const { fileExists, readFile, getSourceFile } = host;
  host.fileExists = (file) => file === GENERATED || fileExists.call(host, file);
  host.readFile = (file) => (file === GENERATED ? generated : readFile.call(host, file));
  host.getSourceFile = (file, language, ...rest) =>
    file === GENERATED
      ? ts.createSourceFile(file, generated, language)
      : getSourceFile.call(host, file, language, ...rest);
  // The second compile reuses the first one's unchanged files (the libraries, openapi-fetch).
  const program = ts.createProgram({
    rootNames: [APP],
    options: COMPILER_OPTIONS,
    host,
    oldProgram: previous,
  });
  previous = program;
  return ts.getPreEmitDiagnostics(program).map((d) => {
    const where = d.file && d.start !== undefined ? d.file.getLineAndCharacterOfPosition(d.start) : undefined;
    const text = ts.flattenDiagnosticMessageText(d.messageText, '\n');
    return `${d.file?.fileName.slice(APP_DIR.length + 1) ?? ''}${where ? `:${where.line + 1}` : ''} ${text}`;
  });
}

/** Non-null assertions, casts and `any` in the app's source: each one would be a claim the types do not make. */
function escapes(source: string): string[] {
  const file = ts.createSourceFile(APP, source, ts.ScriptTarget.ES2023, true);
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    const isConst = ts.isAsExpression(node) && node.type.getText(file) === 'const';
    if (
      ts.isNonNullExpression(node) ||
      (ts.isAsExpression(node) && !isConst) ||
      ts.isTypeAssertionExpression(node) ||
      node.kind === ts.SyntaxKind.AnyKeyword
    ) {
      found.push(
        `${file.getLineAndCharacterOfPosition(node.getStart(file)).line + 1}: ${node.getText(file)}`,
      );
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

type Schema = { properties?: Record<string, object> };

/** The document (JSON text) with every response property nullable, as /openapi.json had it before. */
function everyFieldNullable(text: string): string {
  const document: { components: { schemas: Record<string, Schema> } } = JSON.parse(text);
  for (const schema of Object.values(document.components.schemas)) {
    const properties = schema.properties ?? {};
    for (const [key, property] of Object.entries(properties)) {
      properties[key] = { anyOf: [property, { type: 'null' }] };
    }
  }
  return JSON.stringify(document);
}

describe('a waiter app on the client generated from /openapi.json', () => {
  let stack: Stack;
  let document: string;
  let generated: string;

  beforeAll(async () => {
    stack = await startStack('embedded');
    const served = await fetch(`${stack.baseUrl}/openapi.json`);
    expect(served.status).toBe(200);
    document = await served.text();
    generated = astToString(await openapiTS(document));
  });
  afterAll(async () => stack?.close());

  it('compiles under strict with no non-null assertion, no cast and no `any`', () => {
    expect(escapes('let a = b!; let c = d as T; let e = <T>f; let g: any; let h = [1] as const;')).toEqual([
      '1: b!',
      '1: d as T',
      '1: <T>f',
      '1: any',
    ]);
    expect(escapes(readFileSync(APP, 'utf8'))).toEqual([]);
    expect(compileApp(generated)).toEqual([]);
  });

  it('would not compile if the document left every response field nullable', async () => {
    const loose = astToString(await openapiTS(everyFieldNullable(document)));
    const errors = compileApp(loose);
    expect(errors.length).toBeGreaterThan(0);
    expect(errors.join('\n')).toMatch(/possibly 'null'|'null' is not assignable/);
  });

  it('runs a shift: room, table, status, a lock conflict, an auto-assigned booking, conferma, sync, a batch', async () => {
    const { waiterShift }: WaiterApp = await import(pathToFileURL(APP).href);
    const token = await mintToken({ tenantId: newTenantId(), admin: true });
    const report = await waiterShift(stack.baseUrl, token, '2027-03-12');

    expect(report.tableStatus).toBe('occupied');
    expect(report.lockHeldBy).toBe('tablet-1');
    expect(report.booking).toMatchObject({
      tableIds: [report.tableId],
      assignment: 'auto',
      state: 'confermata',
    });
    expect(report.booking.codice).toMatch(/\S/);
    expect(report.batchCreated).toHaveLength(1);
    // The sync hands out the confirmed booking and the batch's, each once.
    expect(report.synced).toContain(`${report.booking.id}@confermata`);
    expect(report.synced.map((entry) => entry.split('@')[0]).sort()).toEqual(
      [report.booking.id, ...report.batchCreated].sort(),
    );
    const stored = await stack.api('GET', `/api/prenotazioni/${report.batchCreated[0]}`, { token });
    expect(stored.body).toMatchObject({ customerName: 'Bianchi', covers: 2, externalId: 'till-1' });
  });
});
