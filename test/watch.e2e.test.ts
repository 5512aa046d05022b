// `pnpm watch` (scripts/watch.ts) against a running service: it prints a line for each live event.
import { spawn, type ChildProcess } from 'node:child_process';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePorts, killOnExit, mintToken, newTenantId, TEST_JWT_SECRET } from '@coperto/testkit';
import { asyncApiDocument } from '@coperto/gateway';
import { MODES, startStack } from './support/modes.js';
import type { Stack } from './support/stack.js';

const root = resolve(import.meta.dirname, '..');

interface Watcher {
  child: ChildProcess;
  stdout(): string;
  stderr(): string;
  exited: Promise<number | null>;
}

function startWatch(args: string[], env: Record<string, string>): Watcher {
  const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/watch.ts', ...args], {
    cwd: root,
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  killOnExit(child);
  let out = '';
  let err = '';
  child.stdout!.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (err += c.toString()));
  const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
  return { child, stdout: () => out, stderr: () => err, exited };
}

async function until(condition: () => boolean, what: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`never saw ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe.each(MODES)('pnpm watch (%s mode)', (mode) => {
  let stack: Stack;
  let tenant: string;
  let token: string;
  const watchers: Watcher[] = [];

  beforeAll(async () => {
    stack = await startStack(mode);
    tenant = newTenantId();
    token = await mintToken({ tenantId: tenant });
  });
  afterAll(async () => {
    for (const w of watchers) if (w.child.exitCode === null) w.child.kill('SIGKILL');
    await stack?.close();
  });

  it('prints one line per live event: a table’s status change, a booking made', async () => {
    const watch = startWatch(['--tenant', tenant, '--url', stack.baseUrl], { JWT_SECRET: TEST_JWT_SECRET });
    watchers.push(watch);
    await until(() => watch.stderr().includes(`watching tenant ${tenant}`), 'the watcher connect');

    const table = (await stack.api('POST', '/api/tavoli', { token, body: { name: 'W1', seats: 4 } })).body;
    // graphql-ws does not acknowledge a subscription: change the status until the watcher shows a change.
    const statuses = ['occupied', 'free'];
    for (let i = 0; !watch.stdout().includes(`(table ${table.id})`); i++) {
      if (i >= 30) throw new Error(`the watcher printed nothing:\n${watch.stdout()}\n${watch.stderr()}`);
      const put = await stack.api('PUT', `/api/tavoli/${table.id}/status`, {
        token,
        body: { status: statuses[i % 2] },
      });
      expect(put.status).toBe(200);
      await new Promise((r) => setTimeout(r, 1000));
    }
    const line = watch
      .stdout()
      .split('\n')
      .find((l) => l.includes(`(table ${table.id})`))!;
    expect(line).toMatch(
      new RegExp(
        `^\\d{4}-\\d\\d-\\d\\dT\\S+Z tables\\.status W1 (free → occupied|occupied → free) \\(table ${table.id}\\)$`,
      ),
    );

    const booking = await stack.api('POST', '/api/prenotazioni', {
      token,
      body: { covers: 3, customerName: 'Rossi', bookingDate: '2030-06-14T20:00' },
    });
    expect(booking.status).toBe(201);
    await until(() => watch.stdout().includes(`(booking ${booking.body.id})`), 'the booking line');
    const bookingLine = watch
      .stdout()
      .split('\n')
      .find((l) => l.includes(`(booking ${booking.body.id})`))!;
    expect(bookingLine).toContain(`bookings.created ${booking.body.codice} Rossi ·3 2030-06-14T20:00`);

    watch.child.kill('SIGINT');
    expect(await watch.exited).toBe(0);
  });

  it('names the AsyncAPI document of the events, which the gateway serves without a token', async () => {
    const watch = startWatch(['--tenant', tenant, '--url', stack.baseUrl], { JWT_SECRET: TEST_JWT_SECRET });
    watchers.push(watch);
    const documentUrl = `${stack.baseUrl}/asyncapi.json`;
    await until(() => watch.stderr().includes(documentUrl), 'the AsyncAPI address');
    const res = await fetch(documentUrl);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await res.json()).toEqual(asyncApiDocument());
    watch.child.kill('SIGINT');
    expect(await watch.exited).toBe(0);
  });

  it('stops with an error when the service refuses its token', async () => {
    const watch = startWatch(['--tenant', tenant, '--url', stack.baseUrl], {
      JWT_SECRET: 'not-the-secret-of-this-service-but-long-enough',
    });
    watchers.push(watch);
    expect(await watch.exited).toBe(1);
    expect(watch.stderr()).toMatch(/4403 Forbidden/);
    expect(watch.stdout()).toBe('');
  });
});

describe('pnpm watch without a service', () => {
  it('keeps trying to connect, and stops at once on Ctrl-C', async () => {
    const [port] = await freePorts(1);
    const watch = startWatch(['--tenant', 'demo', '--url', `http://127.0.0.1:${port}`], {
      JWT_SECRET: TEST_JWT_SECRET,
    });
    try {
      await until(() => /disconnected[\s\S]*disconnected/.test(watch.stderr()), 'two failed attempts');
      watch.child.kill('SIGINT');
      expect(await watch.exited).toBe(0);
      expect(watch.stdout()).toBe('');
    } finally {
      if (watch.child.exitCode === null) watch.child.kill('SIGKILL');
    }
  });
});
