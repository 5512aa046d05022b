import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../src/logger.js';

function capture(level: 'info' | 'warn') {
  const stream = new PassThrough();
  const lines: Array<Record<string, unknown>> = [];
  stream.on('data', (chunk: Buffer) => {
    for (const line of chunk.toString('utf8').split('\n')) if (line) lines.push(JSON.parse(line));
  });
  return { logger: createLogger({ name: 'test', level, destination: stream }), lines };
}

describe('createLogger', () => {
  it('writes entries at or above its level, with errors in the fields as {name, message, stack}', () => {
    const { logger, lines } = capture('info');
    logger.info('request', { route: '/api/tavoli', status: 200 });
    logger.error('failed', { error: new TypeError('boom') });
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatchObject({
      level: 'info',
      name: 'test',
      msg: 'request',
      route: '/api/tavoli',
      status: 200,
    });
    expect(lines[1]).toMatchObject({
      level: 'error',
      msg: 'failed',
      error: { name: 'TypeError', message: 'boom' },
    });
    expect((lines[1]!.error as { stack: string }).stack).toContain('TypeError: boom');
  });

  it('drops entries below its level without reading their fields', () => {
    const { logger, lines } = capture('warn');
    let reads = 0;
    const fields = {
      get route() {
        reads += 1;
        return '/api/tavoli';
      },
    };
    logger.info('request', fields);
    logger.debug('detail', fields);
    expect(reads).toBe(0);
    logger.warn('slow', fields);
    expect(reads).toBe(1);
    expect(lines).toEqual([expect.objectContaining({ level: 'warn', msg: 'slow', route: '/api/tavoli' })]);
  });
});
