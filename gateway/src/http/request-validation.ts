import type { Options } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { FastifySchemaCompiler } from 'fastify';

// No `format`: a request's dates are patterns (rest/date-patterns.ts), so everything the document states is checked.
const COMMON: Options = { strict: false, allErrors: true, useDefaults: false, removeAdditional: false };

type Validator = ReturnType<FastifySchemaCompiler<Record<string, unknown>>>;
/** What ajv compiles: a validator that takes a data context and carries its compiled schema. */
type CompiledValidator = ((data: unknown, dataContext?: unknown) => boolean) & {
  errors?: unknown;
  schemaEnv?: unknown;
};

/**
 * ajv (JSON Schema 2020-12, the dialect of OpenAPI 3.1) for the REST routes' request schemas: a JSON body is taken as it is (no coercion across types:
 * `"salaId": 0` is a 400, not the id "0"); query and path parameters, which are text, are read as the
 * integer or boolean their schema says.
 *
 * Each schema is compiled on the first request that needs it, not when fastify registers the route: compiling
 * the ≈ 100 request schemas of the REST facade took a fifth of the process's CPU time to ready
 * (docs/architecture.md, "Start-up"). `compileRequestSchemas` compiles them all at once (the tests check that
 * every route's schemas compile).
 */
export function createValidatorCompiler(): FastifySchemaCompiler<Record<string, unknown>> {
  const compile = requestSchemaCompiler();
  return (route) => {
    let validate: CompiledValidator | undefined;
    // fastify passes ajv's data context (the request as the root's parent) once it sees `schemaEnv`.
    const lazy = ((data: unknown, dataContext?: unknown) => {
      validate ??= compile(route) as CompiledValidator;
      lazy.schemaEnv = validate.schemaEnv;
      const valid = validate(data, dataContext);
      lazy.errors = validate.errors;
      return valid;
    }) as CompiledValidator;
    return lazy as Validator;
  };
}

/** The eager compiler: one ajv per coercion mode, a validator per schema. */
export function requestSchemaCompiler(): FastifySchemaCompiler<Record<string, unknown>> {
  const exact = new Ajv2020({ ...COMMON, coerceTypes: false });
  const fromText = new Ajv2020({ ...COMMON, coerceTypes: true });
  return ({ schema, httpPart }) => (httpPart === 'body' ? exact : fromText).compile(schema) as Validator;
}
