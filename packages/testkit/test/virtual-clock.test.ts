import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { afterEach, describe, expect, it } from 'vitest';
import { createVirtualClock, type VirtualClock } from '../src/virtual-clock.js';

const HOUR = 3_600_000;

// A process on the clock: prints `Date.now()`, `new Date()`, `Date()` and an instanceof check whenever it reads a
// line, and says `ready` once its clock's socket is up.
const PROBE = `
const { existsSync } = await import('node:fs');
const sock = process.env.VIRTUAL_CLOCK_DIR + '/' + process.pid + '.sock';
while (!existsSync(sock)) await new Promise((r) => setTimeout(r, 10));
console.log('ready');
const rl = (await import('node:readline')).createInterface({ input: process.stdin });
for await (const _ of rl)
  console.log(JSON.stringify({ now: Date.now(), made: new Date().getTime(), text: Date(), native: new (Object.getPrototypeOf(Date))() instanceof Date }));
`;

function probe(clock: VirtualClock) {
  const child = spawn(process.execPath, ['--input-type=module', '-e', PROBE], {
    env: { PATH: process.env.PATH ?? '', ...clock.env },
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: child.stdout! })[Symbol.asyncIterator]();
  const next = async () => (await lines.next()).value as string;
  return {
    child,
    ready: next,
    async read() {
      child.stdin!.write('\n');
      return JSON.parse(await next()) as { now: number; made: number; text: string; native: boolean };
    },
  };
}

describe('virtual clock (test-only preload)', () => {
  let clock: VirtualClock | undefined;
  const children: ChildProcess[] = [];
  afterEach(async () => {
    for (const child of children.splice(0)) {
      child.kill();
      await once(child, 'exit');
    }
    clock?.close();
  });

  it('runs with the real clock until moved, then every process reads the same time ahead, still running', async () => {
    clock = createVirtualClock();
    const a = probe(clock);
    const b = probe(clock);
    children.push(a.child, b.child);
    expect([await a.ready(), await b.ready()]).toEqual(['ready', 'ready']);

    const before = await a.read();
    expect(Math.abs(before.now - Date.now())).toBeLessThan(1_000);

    await clock.advance(2 * HOUR);
    expect(clock.offsetMs()).toBe(2 * HOUR);
    for (const p of [a, b]) {
      const after = await p.read();
      expect(Math.abs(after.now - clock.now())).toBeLessThan(1_000);
      expect(Math.abs(after.made - clock.now())).toBeLessThan(1_000);
      expect(Date.parse(after.text)).toBeGreaterThan(Date.now() + HOUR);
      expect(after.native).toBe(true);
    }
    const first = await a.read();
    await new Promise((r) => setTimeout(r, 50));
    expect((await a.read()).now).toBeGreaterThanOrEqual(first.now + 40);
  });

  it('never goes back', async () => {
    clock = createVirtualClock();
    await expect(clock.advance(-1)).rejects.toThrow(/never back/);
  });
});
