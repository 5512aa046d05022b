import { envBoolean, envList, envUrl, type ConfigIssue } from '@coperto/config';
import { DEFAULT_OPERATION_LIMITS, type OperationLimits } from '@coperto/graphql-limits';
import { z } from 'zod';

/** Integers of the environment, within bounds. */
const int = (min: number, max: number) => z.coerce.number().int().min(min).max(max);
const port = int(0, 65535);

/**
 * Environment variables every Coperto process reads (each process's config.ts adds its own and is the
 * only place that reads process.env). Defaults are the zero-configuration embedded values.
 */
export const serviceConfigSchema = z.object({
  /** Address the listeners bind. */
  HOST: z.string().default('0.0.0.0'),
  /** Application port (0: any free one, for tests). */
  PORT: port.default(3000),
  HEALTH_PORT: port.default(3001),
  /** Prometheus metrics port. */
  METRICS_PORT: port.default(3030),
  LOG_LEVEL: z.enum(['debug', 'info', 'warn', 'error', 'silent']).default('info'),
  /** Node id in health answers (default: hostname-pid). */
  NODE_ID: z.string().optional(),

  /** Embedded store directory (embedded mode). */
  DATA_DIR: z.string().default('.data'),
  MONGO_URL: envUrl('mongodb', 'mongodb+srv').optional(),
  MONGO_DATABASE: z.string().default('coperto'),
  NATS_URL: envUrl('nats', 'tls').optional(),
  /** NATS username (overrides one in NATS_URL), with NATS_PASSWORD. */
  NATS_USER: z.string().optional(),
  NATS_PASSWORD: z.string().optional(),
  /** NATS token (overrides one in NATS_URL). */
  NATS_TOKEN: z.string().optional(),
  /** Path of a NATS .creds file (JWT + NKey). */
  NATS_CREDS_FILE: z.string().optional(),
  REDIS_URL: envUrl('redis', 'rediss').optional(),

  JWT_SECRET: z.string().min(32).optional(),
  /** PEM public key (RS256/ES256/EdDSA). */
  JWT_PUBLIC_KEY: z.string().optional(),
  JWT_JWKS_URL: envUrl('https', 'http').optional(),
  /** Pinned algorithms, e.g. RS256. */
  JWT_ALGORITHMS: envList.optional(),
  JWT_ISSUER: z.string().optional(),
  JWT_AUDIENCE: z.string().optional(),
  /** Key of the tokens the service issues (channel keys, guest tokens); embedded: created in DATA_DIR. */
  SERVICE_TOKEN_SECRET: z.string().min(32).optional(),

  /** IANA zone of the restaurant wall clock. */
  RESTAURANT_TIMEZONE: z.string().default('Europe/Rome'),
  /** CIDRs allowed to read /public/health/detailed. */
  HEALTH_DETAILED_NETWORKS: envList.default(Object.freeze([])),
  HEALTH_READINESS_DATABASE: envBoolean.default(true),
  HEALTH_READINESS_CACHE: envBoolean.default(true),
  HEALTH_READINESS_BUS: envBoolean.default(true),
  /** Wait after readiness goes 503. */
  SHUTDOWN_DRAIN_MS: int(0, 60_000).default(0),
  /** On SIGTERM, in-flight requests may run this long before they are cut; then exit 0. */
  SHUTDOWN_GRACE_MS: int(0, 600_000).default(25_000),
  BODY_LIMIT_BYTES: int(1024, 64 * 1024 * 1024).default(1024 * 1024),

  // Operation limits of every GraphQL entry point (packages/graphql-limits; defaults DEFAULT_OPERATION_LIMITS).
  GRAPHQL_MAX_TOKENS: int(100, 1_000_000).default(DEFAULT_OPERATION_LIMITS.maxTokens),
  GRAPHQL_MAX_DEPTH: int(2, 1000).default(DEFAULT_OPERATION_LIMITS.maxDepth),
  GRAPHQL_MAX_ALIASES: int(0, 100_000).default(DEFAULT_OPERATION_LIMITS.maxAliases),
  GRAPHQL_MAX_DIRECTIVES: int(0, 100_000).default(DEFAULT_OPERATION_LIMITS.maxDirectives),
  GRAPHQL_MAX_COST: int(10, 1_000_000_000).default(DEFAULT_OPERATION_LIMITS.maxCost),
});

/** The variables whose values are secrets: never in a log, and in deployments only from Secrets. */
export const SECRET_VARIABLES = [
  'MONGO_URL',
  'NATS_URL',
  'NATS_PASSWORD',
  'NATS_TOKEN',
  'REDIS_URL',
  'JWT_SECRET',
  'SERVICE_TOKEN_SECRET',
] as const satisfies ReadonlyArray<keyof typeof serviceConfigSchema.shape>;

export type ServiceConfig = Readonly<z.output<typeof serviceConfigSchema>>;

/**
 * Distributed mode has no embedded secret to fall back to: without a key source its config does not load.
 * (Embedded mode creates a random secret in DATA_DIR instead, see auth-from-config.ts.)
 */
export function keySourceIssues(
  config: Pick<ServiceConfig, 'JWT_SECRET' | 'JWT_PUBLIC_KEY' | 'JWT_JWKS_URL' | 'SERVICE_TOKEN_SECRET'>,
): ConfigIssue[] {
  const issues: ConfigIssue[] = [];
  if (!(config.JWT_SECRET || config.JWT_PUBLIC_KEY || config.JWT_JWKS_URL)) {
    issues.push({
      variable: 'JWT_SECRET',
      message:
        'missing: distributed mode needs a token key: set JWT_SECRET (at least 32 characters), ' +
        'JWT_PUBLIC_KEY with JWT_ALGORITHMS, or JWT_JWKS_URL',
    });
  }
  if (!config.SERVICE_TOKEN_SECRET) {
    issues.push({
      variable: 'SERVICE_TOKEN_SECRET',
      message:
        'missing: distributed mode needs the key of the tokens the service issues (channel keys, guest ' +
        'tokens), at least 32 characters, the same in every process and different from JWT_SECRET',
    });
  } else if (config.SERVICE_TOKEN_SECRET === config.JWT_SECRET) {
    issues.push({ variable: 'SERVICE_TOKEN_SECRET', message: 'must differ from JWT_SECRET' });
  }
  return issues;
}

/** The GRAPHQL_MAX_* settings as the limits every GraphQL entry point applies. */
export function operationLimitsFromConfig(config: ServiceConfig): OperationLimits {
  return {
    maxTokens: config.GRAPHQL_MAX_TOKENS,
    maxDepth: config.GRAPHQL_MAX_DEPTH,
    maxAliases: config.GRAPHQL_MAX_ALIASES,
    maxDirectives: config.GRAPHQL_MAX_DIRECTIVES,
    maxCost: config.GRAPHQL_MAX_COST,
  };
}

/** Subgraph URLs from `SUBGRAPH_<NAME>_URL` (distributed mode), read by the caller's config.ts. */
export function subgraphUrlsFrom(
  env: Readonly<Record<string, string | undefined>>,
  names: readonly string[],
): Record<string, string> {
  const urls: Record<string, string> = {};
  for (const name of names) {
    const value = env[`SUBGRAPH_${name.toUpperCase()}_URL`]?.trim();
    if (value) urls[name] = value;
  }
  return urls;
}
