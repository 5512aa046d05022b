import { describe, expect, it } from 'vitest';
import {
  detailedAnswer,
  familyBAnswer,
  liveAnswer,
  nodeStatus,
  overviewAnswer,
  readyAnswer,
  resolveToggles,
  type NodeState,
} from '../src/bodies.js';
import type { DependencyReports } from '../src/types.js';

const allOn = resolveToggles();
const serving: NodeState = { shuttingDown: false, serving: true, readiness: allOn };
const up = (latency: number) => ({ check: { status: 'up' as const, latency }, details: {} });
const down = (error: string) => ({ check: { status: 'down' as const, error }, details: {} });
const allUp: DependencyReports = { database: up(3), cache: up(1), bus: up(2) };
const identity = { nodeId: 'n1', nodeType: 'gateway', version: '1.0.0', frameworkVersion: '0.1.0' };

describe('live', () => {
  it('alive is 200 with an ISO timestamp, dead is 503', () => {
    const now = new Date('2026-01-02T03:04:05.678Z');
    expect(liveAnswer(true, now)).toEqual({
      status: 200,
      body: { status: 'alive', timestamp: '2026-01-02T03:04:05.678Z' },
    });
    expect(liveAnswer(false, now)).toEqual({
      status: 503,
      body: { status: 'dead', timestamp: '2026-01-02T03:04:05.678Z' },
    });
  });
});

describe('ready', () => {
  it('is 200 ready with database, cache and bus up', () => {
    expect(readyAnswer(serving, allUp)).toEqual({
      status: 200,
      body: {
        status: 'ready',
        checks: {
          database: { status: 'up', latency: 3 },
          cache: { status: 'up', latency: 1 },
          bus: { status: 'up', latency: 2 },
        },
      },
    });
  });

  it('is 503 not_ready when a dependency is down, with its error', () => {
    const answer = readyAnswer(serving, { ...allUp, cache: down('connect ECONNREFUSED') });
    expect(answer.status).toBe(503);
    expect(answer.body).toEqual({
      status: 'not_ready',
      reason: 'dependency_down',
      checks: {
        database: { status: 'up', latency: 3 },
        cache: { status: 'down', error: 'connect ECONNREFUSED' },
        bus: { status: 'up', latency: 2 },
      },
    });
  });

  it('still reports a dependency whose readiness toggle is off, without failing on it', () => {
    const state = { ...serving, readiness: resolveToggles({ cache: false }) };
    const answer = readyAnswer(state, { ...allUp, cache: down('timeout after 1000 ms') });
    expect(answer.status).toBe(200);
    expect(answer.body.checks.cache).toEqual({ status: 'down', error: 'timeout after 1000 ms' });
    expect(readyAnswer(state, { ...allUp, bus: down('x') }).status).toBe(503);
  });

  it('leaves out dependencies the process does not have', () => {
    const answer = readyAnswer(serving, { bus: up(1) });
    expect(answer).toEqual({
      status: 200,
      body: { status: 'ready', checks: { bus: { status: 'up', latency: 1 } } },
    });
  });

  it('is 503 when shutting down or when the main port is not serving, even with everything up', () => {
    expect(readyAnswer({ ...serving, shuttingDown: true }, allUp).body).toMatchObject({
      status: 'not_ready',
      reason: 'shutting_down',
    });
    expect(readyAnswer({ ...serving, serving: false }, allUp)).toMatchObject({
      status: 503,
      body: { status: 'not_ready', reason: 'not_serving' },
    });
  });

  it('defaults every toggle to on', () => {
    expect(resolveToggles({})).toEqual({ database: true, cache: true, bus: true });
    expect(resolveToggles({ bus: false })).toEqual({ database: true, cache: true, bus: false });
  });
});

describe('node status', () => {
  it('up, degraded, down, stopping', () => {
    expect(nodeStatus(serving, allUp, { outbox: { status: 'up' } })).toBe('up');
    expect(nodeStatus(serving, allUp, { outbox: { status: 'degraded', queueLength: 12 } })).toBe('degraded');
    expect(nodeStatus(serving, allUp, { sync: { status: 'down', error: 'x' } })).toBe('degraded');
    const cacheOff = { ...serving, readiness: resolveToggles({ cache: false }) };
    expect(nodeStatus(cacheOff, { ...allUp, cache: down('x') }, {})).toBe('degraded');
    expect(nodeStatus(serving, { ...allUp, database: down('x') }, {})).toBe('down');
    expect(nodeStatus({ ...serving, serving: false }, allUp, {})).toBe('down');
    expect(nodeStatus({ ...serving, shuttingDown: true }, allUp, {})).toBe('stopping');
  });
});

describe('overview', () => {
  it('has the interface fields with an integer uptime', () => {
    const services = ['tavolo'];
    const answer = overviewAnswer(identity, 'up', 12.9, services);
    expect(answer).toEqual({
      status: 200,
      body: {
        nodeID: 'n1',
        nodeType: 'gateway',
        status: 'up',
        uptime: 12,
        services: ['tavolo'],
        version: '1.0.0',
        frameworkVersion: '0.1.0',
      },
    });
    expect(answer.body.services).not.toBe(services);
  });
});

describe('detailed', () => {
  const figures = {
    memory: { heapUsed: 10.4, heapTotal: 20, rss: 30, external: 4, arrayBuffers: 1 },
    cpu: { user: 1500.7, system: 300 },
    eventLoop: { p50: 10, p99: 12, max: 40, longestStall: 0 },
  };

  it('merges probe details into checks; status, latency and error cannot be overridden by details', () => {
    const reports: DependencyReports = {
      database: {
        check: { status: 'up', latency: 4 },
        details: { poolSize: 10, availableConnections: 8, database: 'coperto', status: 'fake', latency: 999 },
      },
      cache: { check: { status: 'down', error: 'timeout after 1000 ms' }, details: { memoryUsed: '1.00M' } },
      bus: { check: { status: 'up', latency: 1 }, details: { reconnects: 2 } },
    };
    const { body, status } = detailedAnswer({
      identity,
      status: 'down',
      uptimeSeconds: 61.5,
      figures,
      reports,
      custom: { outbox: { status: 'degraded', queueLength: 3 } },
    });
    expect(status).toBe(200);
    expect(body.checks).toEqual({
      database: { status: 'up', latency: 4, poolSize: 10, availableConnections: 8, database: 'coperto' },
      cache: { status: 'down', error: 'timeout after 1000 ms', memoryUsed: '1.00M' },
      bus: { status: 'up', latency: 1, reconnects: 2 },
    });
    expect(body).toMatchObject({ nodeID: 'n1', status: 'down', uptime: 61 });
    expect(body.memory).toEqual({ heapUsed: 10, heapTotal: 20, rss: 30, external: 4 });
    expect(body.cpu).toEqual({ user: 1501, system: 300 });
    expect(body.customChecks).toEqual({ outbox: { status: 'degraded', queueLength: 3 } });
  });
});

describe('Family B /health', () => {
  const bus = (connected: boolean) => ({ ping: async () => 1, connected: () => connected });
  const base = { state: serving, serviceCount: 2, uptimeSeconds: 7.8 };

  it('ok with both connected', () => {
    expect(familyBAnswer({ ...base, bus: bus(true), cache: bus(true) })).toEqual({
      status: 200,
      body: {
        status: 'ok',
        transporter: { connected: true },
        cacher: { connected: true },
        broker: { started: true },
        services: 2,
        uptime: 7,
      },
    });
  });

  it('error when a connection is down, when shutting down, or not serving', () => {
    expect(familyBAnswer({ ...base, bus: bus(false), cache: bus(true) })).toMatchObject({
      status: 503,
      body: { status: 'error', transporter: { connected: false }, cacher: { connected: true } },
    });
    expect(familyBAnswer({ ...base, bus: bus(true), cache: bus(false) }).status).toBe(503);
    const stopping = { ...base, state: { ...serving, shuttingDown: true }, bus: bus(true), cache: bus(true) };
    expect(familyBAnswer(stopping)).toMatchObject({
      status: 503,
      body: { status: 'error', broker: { started: false } },
    });
    const notServing = { ...base, state: { ...serving, serving: false }, bus: bus(true), cache: bus(true) };
    expect(familyBAnswer(notServing).status).toBe(503);
  });

  it('respects the readiness toggles and ignores dependencies the process does not have', () => {
    const cacheOff = { ...base, state: { ...serving, readiness: resolveToggles({ cache: false }) } };
    expect(familyBAnswer({ ...cacheOff, bus: bus(true), cache: bus(false) })).toMatchObject({
      status: 200,
      body: { status: 'ok', cacher: { connected: false } },
    });
    expect(familyBAnswer({ ...base, bus: bus(true), cache: undefined })).toMatchObject({
      status: 200,
      body: { cacher: { connected: false } },
    });
  });

  it('a probe without connected() counts as connected; one whose connected() throws as disconnected', () => {
    const noFlag = { ping: async () => 1 };
    const throwing = {
      ping: async () => 1,
      connected: (): boolean => {
        throw new Error('boom');
      },
    };
    expect(familyBAnswer({ ...base, bus: noFlag, cache: noFlag }).body.transporter.connected).toBe(true);
    expect(familyBAnswer({ ...base, bus: throwing, cache: noFlag }).status).toBe(503);
  });
});
