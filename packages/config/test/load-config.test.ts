import { describe, expect, expectTypeOf, it } from 'vitest';
import {
  ConfigError,
  bool,
  duration,
  int,
  list,
  loadConfig,
  oneOf,
  port,
  redactConfig,
  str,
  url,
} from '../src/index.js';

const spec = {
  PORT: port({ default: 3000 }),
  HEALTH_PORT: port({ default: 3001 }),
  RUN_MODE: oneOf(['embedded', 'distributed'], { default: 'embedded' }),
  MONGO_URL: url({ protocols: ['mongodb', 'mongodb+srv'], optional: true }),
  NATS_URL: url({ protocols: ['nats'], optional: true }),
  JWT_SECRET: str({ secret: true, minLength: 32, optional: true }),
  JWT_ALGORITHMS: list({ item: oneOf(['HS256', 'RS256', 'ES256']), default: ['HS256'] }),
  RESTAURANT_TIMEZONE: str(),
  LOCK_TTL: duration({ bareUnit: 's', default: 300_000 }),
  TRUST_PROXY: bool({ default: false }),
  MAX_BATCH: int({ min: 1, max: 500, default: 500 }),
};

const SECRET = 'a-very-long-signing-secret-of-40-chars!!';

describe('loadConfig', () => {
  it.each([
    [
      'all defaults',
      { RESTAURANT_TIMEZONE: 'Europe/Rome' },
      {
        PORT: 3000,
        HEALTH_PORT: 3001,
        RUN_MODE: 'embedded',
        MONGO_URL: undefined,
        NATS_URL: undefined,
        JWT_SECRET: undefined,
        JWT_ALGORITHMS: ['HS256'],
        RESTAURANT_TIMEZONE: 'Europe/Rome',
        LOCK_TTL: 300_000,
        TRUST_PROXY: false,
        MAX_BATCH: 500,
      },
    ],
    [
      'everything set',
      {
        PORT: '8080',
        HEALTH_PORT: '0',
        RUN_MODE: 'distributed',
        MONGO_URL: 'mongodb://db:27017/coperto',
        NATS_URL: 'nats://bus:4222',
        JWT_SECRET: SECRET,
        JWT_ALGORITHMS: 'RS256, ES256',
        RESTAURANT_TIMEZONE: ' Europe/Rome ',
        LOCK_TTL: '120',
        TRUST_PROXY: '1',
        MAX_BATCH: '100',
        UNRELATED: 'ignored',
      },
      {
        PORT: 8080,
        HEALTH_PORT: 0,
        RUN_MODE: 'distributed',
        MONGO_URL: 'mongodb://db:27017/coperto',
        NATS_URL: 'nats://bus:4222',
        JWT_SECRET: SECRET,
        JWT_ALGORITHMS: ['RS256', 'ES256'],
        RESTAURANT_TIMEZONE: 'Europe/Rome',
        LOCK_TTL: 120_000,
        TRUST_PROXY: true,
        MAX_BATCH: 100,
      },
    ],
    [
      'empty and blank strings count as unset',
      { RESTAURANT_TIMEZONE: 'UTC', PORT: '', MONGO_URL: '   ', TRUST_PROXY: '' },
      {
        PORT: 3000,
        HEALTH_PORT: 3001,
        RUN_MODE: 'embedded',
        MONGO_URL: undefined,
        NATS_URL: undefined,
        JWT_SECRET: undefined,
        JWT_ALGORITHMS: ['HS256'],
        RESTAURANT_TIMEZONE: 'UTC',
        LOCK_TTL: 300_000,
        TRUST_PROXY: false,
        MAX_BATCH: 500,
      },
    ],
  ])('%s → typed object', (_name, env, expected) => {
    expect(loadConfig(spec, env)).toEqual(expected);
  });

  it('returns a frozen object with the spec types', () => {
    const config = loadConfig(spec, { RESTAURANT_TIMEZONE: 'UTC' });
    expect(Object.isFrozen(config)).toBe(true);
    expect(Object.isFrozen(config.JWT_ALGORITHMS)).toBe(true);
    expectTypeOf(config.PORT).toEqualTypeOf<number>();
    expectTypeOf(config.RUN_MODE).toEqualTypeOf<'embedded' | 'distributed'>();
    expectTypeOf(config.MONGO_URL).toEqualTypeOf<string | undefined>();
    expectTypeOf(config.JWT_ALGORITHMS).toEqualTypeOf<readonly ('HS256' | 'RS256' | 'ES256')[]>();
    expectTypeOf(config.TRUST_PROXY).toEqualTypeOf<boolean>();
    expectTypeOf(config.RESTAURANT_TIMEZONE).toEqualTypeOf<string>();
    expect(() => {
      (config as { PORT: number }).PORT = 1;
    }).toThrow(TypeError);
  });

  it('reports every bad or missing variable in one ConfigError', () => {
    const env = {
      PORT: 'eighty',
      HEALTH_PORT: '70000',
      RUN_MODE: 'cluster',
      MONGO_URL: 'postgres://db/x',
      JWT_ALGORITHMS: 'HS256,none',
      TRUST_PROXY: 'yes',
      MAX_BATCH: '501',
      LOCK_TTL: 'soon',
    };
    const error = catchConfigError(() => loadConfig(spec, env));
    expect(error.issues.map((i) => i.variable)).toEqual([
      'PORT',
      'HEALTH_PORT',
      'RUN_MODE',
      'MONGO_URL',
      'JWT_ALGORITHMS',
      'RESTAURANT_TIMEZONE',
      'LOCK_TTL',
      'TRUST_PROXY',
      'MAX_BATCH',
    ]);
    expect(error.message).toMatch(/^Invalid configuration \(9 problems\):/);
    for (const variable of error.issues.map((i) => i.variable))
      expect(error.message).toContain(`  - ${variable}: `);
    expect(error.message).toContain('PORT: expected a port number');
    expect(error.message).toContain('(got "eighty")');
    expect(error.message).toContain('RESTAURANT_TIMEZONE: missing: expected a string');
    expect(error.message).toContain('JWT_ALGORITHMS: item 2: expected one of HS256, RS256, ES256');
    expect(error.message).toContain('MAX_BATCH: out of range: expected an integer between 1 and 500');
  });

  it('never echoes a secret value', () => {
    const leaked = 'hunter2-is-not-a-good-secret';
    const error = catchConfigError(() =>
      loadConfig(spec, { RESTAURANT_TIMEZONE: 'UTC', JWT_SECRET: leaked }),
    );
    expect(error.issues).toEqual([
      { variable: 'JWT_SECRET', message: 'too short: 28 characters, at least 32 needed (value hidden)' },
    ]);
    expect(error.message).not.toContain(leaked);
    expect(JSON.stringify(error.issues)).not.toContain(leaked);
  });

  it('masks URL credentials in errors', () => {
    const error = catchConfigError(() =>
      loadConfig(spec, { RESTAURANT_TIMEZONE: 'UTC', MONGO_URL: 'mysql://root:s3cr3t@db/x' }),
    );
    expect(error.message).toContain('(got "mysql://***@db/x")');
    expect(error.message).not.toContain('s3cr3t');
  });

  it('runs cross-variable checks once the fields parse, and reports them as a ConfigError', () => {
    const authSpec = {
      JWT_SECRET: str({ secret: true, optional: true }),
      JWT_JWKS_URL: url({ optional: true }),
    };
    const check = (config: { JWT_SECRET: string | undefined; JWT_JWKS_URL: string | undefined }) =>
      config.JWT_SECRET !== undefined && config.JWT_JWKS_URL !== undefined
        ? [{ variable: 'JWT_SECRET', message: 'set only one of JWT_SECRET, JWT_JWKS_URL' }]
        : [];
    const error = catchConfigError(() =>
      loadConfig(authSpec, { JWT_SECRET: 'x', JWT_JWKS_URL: 'https://idp/jwks' }, { check }),
    );
    expect(error.message).toContain('JWT_SECRET: set only one of JWT_SECRET, JWT_JWKS_URL');
    expect(loadConfig(authSpec, { JWT_SECRET: 'x' }, { check })).toEqual({
      JWT_SECRET: 'x',
      JWT_JWKS_URL: undefined,
    });
  });

  it('redacts secrets for logging', () => {
    const config = loadConfig(spec, { RESTAURANT_TIMEZONE: 'UTC', JWT_SECRET: SECRET });
    const printable = redactConfig(spec, config);
    expect(printable.JWT_SECRET).toBe('[hidden]');
    expect(printable.PORT).toBe(3000);
    expect(JSON.stringify(printable)).not.toContain(SECRET);
  });
});

function catchConfigError(fn: () => unknown): ConfigError {
  try {
    fn();
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error('expected a ConfigError');
}
