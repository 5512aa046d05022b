import { bool, int, list, oneOf, port, str, url, type Config, type ConfigIssue } from '@coperto/config';
import { DEFAULT_OPERATION_LIMITS, type OperationLimits } from '@coperto/graphql-limits';

/**
 * Environment variables every Coperto process reads (each process's config.ts adds its own and is the
 * only place that reads process.env). Defaults are the zero-configuration embedded values.
 */
export const serviceConfigSpec = {
  HOST: str({ default: '0.0.0.0', description: 'address the listeners bind' }),
  PORT: port({ default: 3000, description: 'application port' }),
  HEALTH_PORT: port({ default: 3001, description: 'health server port' }),
  METRICS_PORT: port({ default: 3030, description: 'Prometheus metrics port' }),
  LOG_LEVEL: oneOf(['debug', 'info', 'warn', 'error', 'silent'] as const, { default: 'info' }),
  NODE_ID: str({ optional: true, description: 'node id in health answers (default: hostname-pid)' }),

  DATA_DIR: str({ default: '.data', description: 'embedded store directory (embedded mode)' }),
  MONGO_URL: url({ optional: true, secret: true, protocols: ['mongodb', 'mongodb+srv'] }),
  MONGO_DATABASE: str({ default: 'coperto' }),
  NATS_URL: url({ optional: true, secret: true, protocols: ['nats', 'tls'] }),
  NATS_USER: str({ optional: true, description: 'NATS username (overrides one in NATS_URL)' }),
  NATS_PASSWORD: str({ optional: true, secret: true, description: 'NATS password, with NATS_USER' }),
  NATS_TOKEN: str({ optional: true, secret: true, description: 'NATS token (overrides one in NATS_URL)' }),
  NATS_CREDS_FILE: str({ optional: true, description: 'path of a NATS .creds file (JWT + NKey)' }),
  REDIS_URL: url({ optional: true, secret: true, protocols: ['redis', 'rediss'] }),

  JWT_SECRET: str({ optional: true, secret: true, minLength: 32 }),
  JWT_PUBLIC_KEY: str({ optional: true, description: 'PEM public key (RS256/ES256/EdDSA)' }),
  JWT_JWKS_URL: url({ optional: true, protocols: ['https', 'http'] }),
  JWT_ALGORITHMS: list({ optional: true, description: 'pinned algorithms, e.g. RS256' }),
  JWT_ISSUER: str({ optional: true }),
  JWT_AUDIENCE: str({ optional: true }),
  SERVICE_TOKEN_SECRET: str({
    optional: true,
    secret: true,
    minLength: 32,
    description:
      'key of the tokens the service issues (channel keys, guest tokens); embedded: created in DATA_DIR',
  }),

  RESTAURANT_TIMEZONE: str({ default: 'Europe/Rome', description: 'IANA zone of the restaurant wall clock' }),
  HEALTH_DETAILED_NETWORKS: list({
    default: [],
    description: 'CIDRs allowed to read /public/health/detailed',
  }),
  HEALTH_READINESS_DATABASE: bool({ default: true }),
  HEALTH_READINESS_CACHE: bool({ default: true }),
  HEALTH_READINESS_BUS: bool({ default: true }),
  SHUTDOWN_DRAIN_MS: int({ default: 0, min: 0, max: 60_000, description: 'wait after readiness goes 503' }),
  SHUTDOWN_GRACE_MS: int({
    default: 25_000,
    min: 0,
    max: 600_000,
    description: 'on SIGTERM, in-flight requests may run this long before they are cut; then exit 0',
  }),
  BODY_LIMIT_BYTES: int({ default: 1024 * 1024, min: 1024, max: 64 * 1024 * 1024 }),

  // Operation limits of every GraphQL entry point (packages/graphql-limits; defaults DEFAULT_OPERATION_LIMITS).
  GRAPHQL_MAX_TOKENS: int({ default: DEFAULT_OPERATION_LIMITS.maxTokens, min: 100, max: 1_000_000 }),
  GRAPHQL_MAX_DEPTH: int({ default: DEFAULT_OPERATION_LIMITS.maxDepth, min: 2, max: 1000 }),
  GRAPHQL_MAX_ALIASES: int({ default: DEFAULT_OPERATION_LIMITS.maxAliases, min: 0, max: 100_000 }),
  GRAPHQL_MAX_DIRECTIVES: int({ default: DEFAULT_OPERATION_LIMITS.maxDirectives, min: 0, max: 100_000 }),
  GRAPHQL_MAX_COST: int({ default: DEFAULT_OPERATION_LIMITS.maxCost, min: 10, max: 1_000_000_000 }),
} as const;

export type ServiceConfig = Config<typeof serviceConfigSpec>;

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
