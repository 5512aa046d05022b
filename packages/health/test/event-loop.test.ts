import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getJson, until } from './helpers.js';

const here = dirname(fileURLToPath(import.meta.url));

/** The fork-a-prober pattern: the server runs in a child whose loop we block; this process sends the probes. */
class BlockingChild {
  readonly process: ChildProcessWithoutNullStreams;
  private readonly lines: string[] = [];
  private readonly waiters: Array<() => void> = [];
  private stderr = '';

  constructor() {
    this.process = spawn(
      process.execPath,
      ['--import', 'tsx', join(here, 'fixtures', 'blocking-health-server.ts')],
      {
        cwd: join(here, '..'),
        stdio: ['pipe', 'pipe', 'pipe'],
      },
    );
    this.process.stderr.on(
      'data',
      (chunk: Buffer) => (this.stderr = (this.stderr + chunk.toString()).slice(-4000)),
    );
    createInterface({ input: this.process.stdout }).on('line', (line) => {
      this.lines.push(line);
      this.waiters.splice(0).forEach((wake) => wake());
    });
  }

  /** Waits (bounded) for a stdout line starting with `prefix` and returns it. */
  async line(prefix: string, ms = 20_000): Promise<string> {
    const deadline = Date.now() + ms;
    for (;;) {
      const found = this.lines.find((l) => l.startsWith(prefix));
      if (found) {
        this.lines.splice(this.lines.indexOf(found), 1);
        return found;
      }
      if (this.process.exitCode !== null) throw new Error(`child exited: ${this.stderr}`);
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no "${prefix}" line within ${ms} ms; stderr: ${this.stderr}`);
      await new Promise<void>((wake) => {
        const timer = setTimeout(wake, Math.min(left, 250));
        this.waiters.push(() => {
          clearTimeout(timer);
          wake();
        });
      });
    }
  }

  send(command: string): void {
    this.process.stdin.write(`${command}\n`);
  }

  async stop(): Promise<void> {
    if (this.process.exitCode !== null || this.process.signalCode !== null) return;
    const exited = new Promise((r) => this.process.once('exit', r));
    this.send('EXIT');
    const timer = setTimeout(() => this.process.kill('SIGKILL'), 5000);
    await exited;
    clearTimeout(timer);
  }
}

describe('liveness and a blocked event loop', () => {
  let child: BlockingChild;
  let live: string;
  beforeAll(async () => {
    child = new BlockingChild();
    const port = Number((await child.line('PORT ')).split(' ')[1]);
    live = `http://127.0.0.1:${port}/public/health/live`;
  });
  afterAll(() => child?.stop());

  it('a short block (under the 2 s threshold) does not make the node dead', async () => {
    child.send('BLOCK 300');
    await child.line('BLOCKING');
    const during = await getJson(live, { signal: AbortSignal.timeout(15_000) });
    await child.line('UNBLOCKED');
    expect(during).toMatchObject({ status: 200, body: { status: 'alive' } });
  });

  it('answers 503 dead to a probe that waited behind a 3 s block, and 200 alive again afterwards', async () => {
    expect((await getJson(live)).body.status).toBe('alive');

    child.send('BLOCK 3000');
    await child.line('BLOCKING');
    const during = await getJson(live, { signal: AbortSignal.timeout(15_000) });
    expect(during.status).toBe(503);
    expect(during.body.status).toBe('dead');
    expect(typeof during.body.timestamp).toBe('string');

    await child.line('UNBLOCKED');
    await until('alive again after the block', async () => (await getJson(live)).status === 200, 10_000);
    expect((await getJson(live)).body.status).toBe('alive');
  });
});
