import { describe, expect, it } from 'vitest';
import { runBounded } from '../src/bounded.js';
import { CustomChecks, normalizeCustomResult } from '../src/custom-checks.js';
import { checkDependencies, checkDependency } from '../src/dependency-checks.js';
import { safeErrorText } from '../src/error-text.js';
import { deferred, never } from './helpers.js';

describe('safe error text', () => {
  it('keeps the first line only: no stack trace', () => {
    const error = new Error('connect ECONNREFUSED 127.0.0.1:6379');
    expect(safeErrorText(error)).toBe('connect ECONNREFUSED 127.0.0.1:6379');
    expect(safeErrorText(new Error('first\n    at Object.<anonymous> (/app/x.js:1:1)'))).toBe('first');
  });

  it('removes connection strings and secrets', () => {
    const text = safeErrorText(
      new Error('failed to connect to mongodb://admin:s3cret@db.internal:27017/coperto?authSource=admin'),
    );
    expect(text).toBe('failed to connect to mongodb://<redacted>');
    expect(safeErrorText('bad auth password=hunter2 for redis')).toBe(
      'bad auth password=<redacted> for redis',
    );
  });

  it('copes with non-errors, empty messages and very long text', () => {
    expect(safeErrorText(undefined)).toBe('check failed');
    expect(safeErrorText({ some: 'object' })).toBe('check failed');
    expect(safeErrorText(new Error(''))).toBe('Error');
    expect(safeErrorText('x'.repeat(500))).toHaveLength(200);
  });
});

describe('bounded runs', () => {
  it('resolves with the value, or a safe error, or a timeout', async () => {
    expect(await runBounded(async () => 7, 1000)).toMatchObject({ ok: true, value: 7 });
    expect(await runBounded(() => Promise.reject(new Error('nope')), 1000)).toEqual({
      ok: false,
      error: 'nope',
    });
    expect(
      await runBounded(() => {
        throw new Error('sync');
      }, 1000),
    ).toEqual({ ok: false, error: 'sync' });
    expect(await runBounded(() => never(), 50)).toEqual({ ok: false, error: 'timeout after 50 ms' });
  });
});

describe('dependency checks', () => {
  it('up with an integer latency and the probe details', async () => {
    const report = await checkDependency(
      { ping: async () => 'PONG', details: async () => ({ memoryUsed: '1.00M', connectedClients: 3 }) },
      1000,
    );
    expect(report.check.status).toBe('up');
    expect(Number.isInteger(report.check.status === 'up' ? report.check.latency : NaN)).toBe(true);
    expect(report.details).toEqual({ memoryUsed: '1.00M', connectedClients: 3 });
  });

  it('down with the error text, down with a timeout when the ping hangs, details still shown', async () => {
    const refused = await checkDependency({ ping: () => Promise.reject(new Error('ECONNREFUSED')) }, 1000);
    expect(refused.check).toEqual({ status: 'down', error: 'ECONNREFUSED' });
    const hung = await checkDependency({ ping: () => never(), details: () => ({ reconnects: 4 }) }, 100);
    expect(hung).toEqual({
      check: { status: 'down', error: 'timeout after 100 ms' },
      details: { reconnects: 4 },
    });
  });

  it('passes the budget to the probe; a failing or hanging details() only drops the details', async () => {
    let budget = 0;
    const failing = await checkDependency(
      {
        ping: async (timeoutMs) => {
          budget = timeoutMs;
        },
        details: () => Promise.reject(new Error('INFO failed')),
      },
      321,
    );
    expect(budget).toBe(321);
    expect(failing.check.status).toBe('up');
    expect(failing.details).toEqual({});
    const hanging = await checkDependency({ ping: async () => 1, details: () => never() }, 50);
    expect(hanging.details).toEqual({});
  });

  it('checks only the configured dependencies, in parallel', async () => {
    const started: string[] = [];
    const gate = deferred();
    const probe = (name: string) => ({
      ping: async () => {
        started.push(name);
        await gate.promise;
      },
    });
    const running = checkDependencies({ database: probe('database'), bus: probe('bus') }, 1000);
    // Both pings started before either finished: they run side by side.
    expect(started.sort()).toEqual(['bus', 'database']);
    gate.resolve();
    const reports = await running;
    expect(Object.keys(reports).sort()).toEqual(['bus', 'database']);
  });
});

describe('custom checks', () => {
  it('reports up, degraded, down; a throw and a hang are down with an error', async () => {
    const checks = new CustomChecks();
    checks.register('ok', async () => ({ status: 'up', latency: 3 }));
    checks.register('slow', async () => ({ status: 'degraded', queueLength: 120 }));
    checks.register('bad', async () => ({
      status: 'down',
      error: 'sync stale',
      lastSync: '2026-01-01T00:00:00Z',
    }));
    checks.register('throws', async () => {
      throw new Error('outbox query failed\n    at secret/place.js:1');
    });
    checks.register('hangs', () => never());
    expect(await checks.run(100)).toEqual({
      ok: { status: 'up', latency: 3 },
      slow: { status: 'degraded', queueLength: 120 },
      bad: { status: 'down', error: 'sync stale', lastSync: '2026-01-01T00:00:00Z' },
      throws: { status: 'down', error: 'outbox query failed' },
      hangs: { status: 'down', error: 'timeout after 100 ms' },
    });
  });

  it('treats a malformed result as down and cleans an Error in `error`', () => {
    expect(normalizeCustomResult(null)).toEqual({ status: 'down', error: 'invalid check result' });
    expect(normalizeCustomResult({ status: 'fine' })).toEqual({
      status: 'down',
      error: 'invalid check result',
    });
    expect(normalizeCustomResult({ status: 'down', error: new Error('x\ny') })).toEqual({
      status: 'down',
      error: 'x',
    });
  });

  it('refuses a duplicate name and can be unregistered', async () => {
    const checks = new CustomChecks();
    const remove = checks.register('outbox', async () => ({ status: 'up' }));
    expect(() => checks.register('outbox', async () => ({ status: 'up' }))).toThrow(/already registered/);
    remove();
    expect(checks.size).toBe(0);
    expect(await checks.run(100)).toEqual({});
  });
});
