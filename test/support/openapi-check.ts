import { appendFileSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import { openApiDocument } from '@coperto/gateway';

/**
 * Checks every REST answer the e2e suite receives against the OpenAPI document the gateway serves (built
 * here from the same route table and supergraph): a status the route does not document, or a body that
 * does not match the documented schema, throws. `OPENAPI_CHECK_LOG=<file>` appends one line per check.
 */
type Doc = {
  paths: Record<
    string,
    Record<string, { responses: Record<string, { content?: Record<string, { schema: unknown }> }> }>
  >;
  components: Record<string, unknown>;
};

let doc: Doc | undefined;
let templates: { template: string; pattern: RegExp }[] = [];
/**
 * The document's formats, checked here as RFC 3339 says (the GraphQL `LocalDate` and `DateTime` answers): a
 * `date` is `YYYY-MM-DD`, a `date-time` has seconds and `Z` or an offset.
 */
const FORMATS = {
  date: /^\d{4}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12]\d|3[01])$/,
  'date-time':
    /^\d{4}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12]\d|3[01])T(?:[01]\d|2[0-3]):[0-5]\d:[0-5]\d(?:\.\d+)?(?:Z|[+-](?:[01]\d|2[0-3]):[0-5]\d)$/i,
};
const ajv = new Ajv2020({ strict: false, allErrors: true, formats: FORMATS });
const compiled = new Map<string, ValidateFunction>();

function load(): Doc {
  if (doc) return doc;
  const sdl = readFileSync(resolve(import.meta.dirname, '../../supergraph.graphql'), 'utf8');
  doc = openApiDocument(sdl) as unknown as Doc;
  const params = (template: string) => template.split('{').length;
  templates = Object.keys(doc.paths)
    .sort((a, b) => params(a) - params(b))
    .map((template) => ({
      template,
      pattern: new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]+')}$`),
    }));
  return doc;
}

function validatorFor(key: string, schema: unknown, components: unknown): ValidateFunction {
  let validate = compiled.get(key);
  if (!validate) {
    validate = ajv.compile({ ...(schema as object), components });
    compiled.set(key, validate);
  }
  return validate;
}

const ERROR_BODY = {
  type: 'object',
  required: ['error'],
  properties: {
    error: {
      type: 'object',
      required: ['code', 'message'],
      properties: { code: { type: 'string' }, message: { type: 'string' } },
    },
  },
};

export function checkAgainstOpenApi(method: string, url: URL, status: number, body: unknown): void {
  if (!url.pathname.startsWith('/api/')) return;
  const document = load();
  const verb = method.toLowerCase();
  // As the route matcher: the template with the most static segments wins, whatever the method.
  const found = templates.find(({ pattern }) => pattern.test(url.pathname));
  const operation = found ? document.paths[found.template]?.[verb] : undefined;
  const label = `${method} ${found?.template ?? url.pathname} → ${status}`;
  const log = (verdict: string) => {
    if (process.env.OPENAPI_CHECK_LOG) appendFileSync(process.env.OPENAPI_CHECK_LOG, `${label} ${verdict}\n`);
  };
  if (!operation) {
    // Not a documented route: only a 404 (unknown path) or 405 (known path, other method) error body.
    const expected = found ? 405 : 404;
    const validate = validatorFor('undocumented', ERROR_BODY, {});
    if (status !== expected || !validate(body)) {
      log('MISMATCH');
      throw new Error(`OpenAPI: undocumented ${label}: ${JSON.stringify(body).slice(0, 300)}`);
    }
    return log('ok');
  }
  const response = operation.responses[String(status)];
  if (!response) {
    log('MISMATCH');
    throw new Error(`OpenAPI: ${label} is not documented: ${JSON.stringify(body).slice(0, 300)}`);
  }
  const schema = response.content?.['application/json']?.schema;
  if (!schema) return log('ok');
  const validate = validatorFor(`${verb} ${found!.template} ${status}`, schema, document.components);
  if (!validate(body)) {
    log('MISMATCH');
    throw new Error(
      `OpenAPI: ${label} does not match the document: ${ajv.errorsText(validate.errors)}\n${JSON.stringify(body).slice(0, 500)}`,
    );
  }
  log('ok');
}
