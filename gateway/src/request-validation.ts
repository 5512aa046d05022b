import type { Options } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { FastifySchemaCompiler } from 'fastify';

const COMMON: Options = { strict: false, allErrors: true, useDefaults: false, removeAdditional: false };

/**
 * ajv (JSON Schema 2020-12, the dialect of OpenAPI 3.1) for the REST routes' request schemas: a JSON body is taken as it is (no coercion across types:
 * `"salaId": 0` is a 400, not the id "0"); query and path parameters, which are text, are read as the
 * integer or boolean their schema says.
 */
export function createValidatorCompiler(): FastifySchemaCompiler<Record<string, unknown>> {
  const exact = new Ajv2020({ ...COMMON, coerceTypes: false });
  const fromText = new Ajv2020({ ...COMMON, coerceTypes: true });
  return ({ schema, httpPart }) =>
    (httpPart === 'body' ? exact : fromText).compile(schema) as ReturnType<
      FastifySchemaCompiler<Record<string, unknown>>
    >;
}
