import type { z } from 'zod';
import { ConfigError, type ConfigIssue } from './config-error.js';

/** The environment as the caller passes it (usually `process.env`, read only in a process's config.ts). */
export type Env = Readonly<Record<string, string | undefined>>;

/** A process's configuration schema: a zod object keyed by variable name. */
export type ConfigSchema = z.ZodObject<z.ZodRawShape>;

/** Options of `loadConfig`. */
export interface LoadConfigOptions<T> {
  /**
   * Checks across variables (e.g. "distributed mode needs a token key"), run once every variable has parsed.
   * Return the problems found; they are thrown as one ConfigError.
   */
  check?: (config: T) => readonly ConfigIssue[];
}

/**
 * Parses the variables of `schema` from `env` and returns the frozen, typed result (one entry per variable). Values are trimmed, and an
 * empty (or blank) value counts as unset (so `.default()` and `.optional()` apply). Every missing or invalid
 * variable is collected and thrown as a single ConfigError whose messages never repeat a value (a secret's
 * included). Variables not in the schema are ignored.
 *
 * @example
 * const config = loadConfig(z.object({ PORT: z.coerce.number().int().min(0).max(65535).default(3000) }), process.env);
 */
export function loadConfig<S extends ConfigSchema>(
  schema: S,
  env: Env,
  options: LoadConfigOptions<Readonly<z.output<S>>> = {},
): Readonly<z.output<S>> {
  const values: Record<string, string> = {};
  for (const variable of Object.keys(schema.shape)) {
    const value = env[variable]?.trim();
    if (value) values[variable] = value;
  }
  const result = schema.safeParse(values);
  if (!result.success) {
    throw new ConfigError(
      result.error.issues.map((issue) => ({
        variable: String(issue.path[0]),
        message:
          issue.code === 'invalid_type' && values[String(issue.path[0])] === undefined
            ? 'missing'
            : issue.message,
      })),
    );
  }
  // One entry per variable, `undefined` for an optional one left unset (zod leaves those out).
  const data = result.data as Record<string, unknown>;
  const config = Object.freeze(
    Object.fromEntries(Object.keys(schema.shape).map((variable) => [variable, data[variable]])),
  ) as Readonly<z.output<S>>;
  const crossIssues = options.check?.(config) ?? [];
  if (crossIssues.length > 0) throw new ConfigError(crossIssues);
  return config;
}
