import { describe, expect, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import { ConfigError, envBoolean, envList, envUrl, loadConfig } from '../src/index.js';

const schema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  RUN_MODE: z.enum(['embedded', 'distributed']).default('embedded'),
  MONGO_URL: envUrl('mongodb', 'mongodb+srv').optional(),
  JWT_SECRET: z.string().min(32).optional(),
  JWT_ALGORITHMS: envList.default(['HS256']),
  RESTAURANT_TIMEZONE: z.string(),
  TRUST_PROXY: envBoolean.default(false),
});

const SECRET = 'a-very-long-signing-secret-of-40-chars!!';

function issuesOf(env: Record<string, string>): ConfigError['issues'] {
  try {
    loadConfig(schema, env);
  } catch (error) {
    if (error instanceof ConfigError) return error.issues;
    throw error;
  }
  throw new Error('expected a ConfigError');
}

describe('loadConfig', () => {
  it('applies the defaults, trims values, and takes an empty or blank value as unset', () => {
    const config = loadConfig(schema, { RESTAURANT_TIMEZONE: ' Europe/Rome ', PORT: '  ', MONGO_URL: '' });
    expect(config).toEqual({
      PORT: 3000,
      RUN_MODE: 'embedded',
      JWT_ALGORITHMS: ['HS256'],
      RESTAURANT_TIMEZONE: 'Europe/Rome',
      TRUST_PROXY: false,
    });
    expect(Object.keys(config).sort()).toEqual(Object.keys(schema.shape).sort());
    expect(Object.isFrozen(config)).toBe(true);
    expectTypeOf(config.PORT).toEqualTypeOf<number>();
    expectTypeOf(config.MONGO_URL).toEqualTypeOf<string | undefined>();
    expectTypeOf(config.RUN_MODE).toEqualTypeOf<'embedded' | 'distributed'>();
  });

  it('parses every kind of variable', () => {
    const config = loadConfig(schema, {
      PORT: '8080',
      RUN_MODE: 'distributed',
      MONGO_URL: 'mongodb://a:27017,b:27017/coperto?replicaSet=rs0',
      JWT_SECRET: SECRET,
      JWT_ALGORITHMS: 'RS256, ,ES256 ',
      RESTAURANT_TIMEZONE: 'Europe/Rome',
      TRUST_PROXY: 'TRUE',
      UNRELATED: 'ignored',
    });
    expect(config).toMatchObject({ PORT: 8080, RUN_MODE: 'distributed', JWT_ALGORITHMS: ['RS256', 'ES256'] });
    expect(config.MONGO_URL).toBe('mongodb://a:27017,b:27017/coperto?replicaSet=rs0');
    expect(config.TRUST_PROXY).toBe(true);
    expect(Object.isFrozen(config.JWT_ALGORITHMS)).toBe(true);
    expect(config).not.toHaveProperty('UNRELATED');
  });

  it('reports every bad or missing variable in one ConfigError, naming each', () => {
    const issues = issuesOf({
      PORT: '70000',
      RUN_MODE: 'cluster',
      MONGO_URL: 'postgres://db/x',
      JWT_ALGORITHMS: ' , ',
      TRUST_PROXY: 'yes',
    });
    expect(issues.map((issue) => issue.variable).sort()).toEqual([
      'JWT_ALGORITHMS',
      'MONGO_URL',
      'PORT',
      'RESTAURANT_TIMEZONE',
      'RUN_MODE',
      'TRUST_PROXY',
    ]);
    expect(issues.find((issue) => issue.variable === 'RESTAURANT_TIMEZONE')?.message).toBe('missing');
    expect(issues.find((issue) => issue.variable === 'MONGO_URL')?.message).toBe(
      'expected a URL with scheme mongodb, mongodb+srv',
    );
    expect(() => loadConfig(schema, { PORT: 'eighty', RESTAURANT_TIMEZONE: 'x' })).toThrow(
      /^Invalid configuration \(1 problem\):\n {2}- PORT: /,
    );
  });

  it('never repeats a value in its errors (secrets, URLs with passwords)', () => {
    const env = {
      JWT_SECRET: 'short-secret',
      MONGO_URL: 'postgres://admin:s3cret@db/x',
      RESTAURANT_TIMEZONE: 'x',
    };
    const message = (() => {
      try {
        loadConfig(schema, env);
      } catch (error) {
        return String((error as Error).message);
      }
      return '';
    })();
    expect(message).toMatch(/JWT_SECRET/);
    expect(message).not.toContain('short-secret');
    expect(message).not.toContain('s3cret');
  });

  it('runs cross-variable checks once every variable parsed, and reports them as a ConfigError', () => {
    const check = (config: { RUN_MODE: string; JWT_SECRET?: string | undefined }) =>
      config.RUN_MODE === 'distributed' && !config.JWT_SECRET
        ? [{ variable: 'JWT_SECRET', message: 'missing: distributed mode needs a key' }]
        : [];
    expect(() =>
      loadConfig(schema, { RUN_MODE: 'distributed', RESTAURANT_TIMEZONE: 'x' }, { check }),
    ).toThrow('JWT_SECRET: missing: distributed mode needs a key');
    expect(loadConfig(schema, { RESTAURANT_TIMEZONE: 'x' }, { check }).RUN_MODE).toBe('embedded');
  });
});
