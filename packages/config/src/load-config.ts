import { z } from 'zod';
import type { ConfigIssue } from './config-error.js';
import { ConfigError } from './config-error.js';
import { issueMessage, type Field } from './field.js';

/** A config spec: environment variable name → field. */
export type ConfigSpec = Readonly<Record<string, Field<unknown>>>;

/** The typed object `loadConfig` returns for a spec: the same keys, each with its field's type. */
export type Config<S extends ConfigSpec> = {
  readonly [K in keyof S]: S[K] extends Field<infer T> ? T : never;
};

/** The environment as the caller passes it (usually `process.env`, read only in a process's config.ts). */
export type Env = Readonly<Record<string, string | undefined>>;

/** Options of `loadConfig`. */
export interface LoadConfigOptions<S extends ConfigSpec> {
  /**
   * Checks across variables (e.g. "at most one of JWT_SECRET, JWT_PUBLIC_KEY, JWT_JWKS_URL"), run once every
   * field has parsed. Return the problems found; they are thrown as one ConfigError.
   */
  check?: (config: Config<S>) => readonly ConfigIssue[];
}

/** A field's schema over the environment's text: trimmed, empty = unset, then its default, or "missing". */
function variableSchema(field: Field<unknown>): z.ZodType<unknown, string | undefined> {
  const unset = (raw: string | undefined) => (raw ?? '').trim() === '';
  const whenUnset = field.whenUnset;
  return z
    .string()
    .optional()
    .transform((raw, context) => {
      if (unset(raw)) {
        if (whenUnset) return frozen(whenUnset.value);
        context.addIssue({ code: 'custom', message: `missing: expected ${field.expected}`, input: raw });
        return z.NEVER;
      }
      const result = field.schema.safeParse(raw!.trim());
      if (result.success) return result.data;
      const shown = field.secret || !field.show ? '(value hidden)' : `(got ${field.show(raw!.trim())})`;
      context.addIssue({ code: 'custom', message: `${issueMessage(result.error.issues[0]!)} ${shown}` });
      return z.NEVER;
    });
}

/**
 * Parses `env` against `spec` with one zod object (a schema per variable) and returns a frozen, typed object
 * with one entry per spec key. Values are trimmed; an empty (or blank) value counts as unset. Every missing or
 * invalid variable is collected and thrown as a single ConfigError; secret values never appear in it.
 * Variables not in the spec are ignored.
 *
 * @example
 * const config = loadConfig({ PORT: port({ default: 3000 }), MONGO_URL: url({ optional: true }) }, process.env);
 */
export function loadConfig<const S extends ConfigSpec>(
  spec: S,
  env: Env,
  options: LoadConfigOptions<S> = {},
): Config<S> {
  const shape = Object.fromEntries(
    Object.entries(spec).map(([variable, field]) => [variable, variableSchema(field)]),
  );
  const values = Object.fromEntries(Object.keys(spec).map((variable) => [variable, env[variable]]));
  const result = z.object(shape).safeParse(values);
  if (!result.success) {
    throw new ConfigError(
      result.error.issues.map((issue) => ({ variable: String(issue.path[0]), message: issue.message })),
    );
  }
  const config = Object.freeze({ ...result.data }) as Config<S>;
  const crossIssues = options.check?.(config) ?? [];
  if (crossIssues.length > 0) throw new ConfigError(crossIssues);
  return config;
}

/** Defaults are shared with the spec: lists are copied before freezing so the spec's own array is untouched. */
function frozen(value: unknown): unknown {
  return Array.isArray(value) && !Object.isFrozen(value) ? Object.freeze([...value]) : value;
}

/**
 * A copy of a loaded config that is safe to log: secret fields become `'[hidden]'` (or stay `undefined`
 * when unset).
 */
export function redactConfig<S extends ConfigSpec>(spec: S, config: Config<S>): Record<keyof S, unknown> {
  const out: Record<string, unknown> = {};
  for (const [variable, field] of Object.entries(spec)) {
    const value = (config as Record<string, unknown>)[variable];
    out[variable] = field.secret && value !== undefined ? '[hidden]' : value;
  }
  return out as Record<keyof S, unknown>;
}
