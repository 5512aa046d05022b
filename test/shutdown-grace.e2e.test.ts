import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { mintToken, newTenantId } from '@coperto/testkit';
import { startProcess, type ProcessHandle } from './support/stack.js';

/**
 * On SIGTERM, in-flight requests finish (up to SHUTDOWN_GRACE_MS, default 25 s) and the process exits 0
 * (docs/guarantees.md). A real gateway process in embedded mode (everything in it) gets SIGTERM
 * while a 500-item batch upload is in flight; the client sends the rest of its body only after more than the
 * old 5 s cut, so the request runs well past it whatever the machine's speed. It still gets its full answer.
 */
const PAST_THE_OLD_CUT_MS = 6_000;

describe('SIGTERM grace for in-flight requests (embedded gateway process)', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'coperto-grace-'));
  let gateway: ProcessHandle | undefined;
  afterAll(async () => {
    await gateway?.stop('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('a batch upload in flight when SIGTERM arrives completes with its full answer; the process exits 0', async () => {
    gateway = await startProcess('gateway-grace', 'gateway/src/index.ts', {
      COPERTO_MODE: 'embedded',
      DATA_DIR: dataDir,
    });
    const token = await mintToken({ tenantId: newTenantId() });
    const items = Array.from({ length: 500 }, (_, i) => ({
      covers: 1 + (i % 8),
      bookingDate: `2027-04-${String(1 + (i % 28)).padStart(2, '0')}T20:00`,
      customerName: `Grace ${i}`,
    }));
    const body = JSON.stringify({ items });
    const exited = new Promise<number | null>((resolve) =>
      gateway!.child.once('exit', (code) => resolve(code)),
    );

    const req = request({
      host: '127.0.0.1',
      port: gateway.port,
      method: 'POST',
      path: '/api/prenotazioni/batch',
      // 100-continue: the server answers once it has read the request's head, so SIGTERM finds a request in flight,
      // not a connection that has sent nothing it read yet (an idle one, which shutdown closes at once: under load
      // the head could still be unread when the signal came, and the request was cut; CI run at load 25).
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': 'application/json',
        expect: '100-continue',
      },
    });
    const headRead = new Promise<void>((resolve) => req.once('continue', () => resolve()));
    const answer = new Promise<{ status: number; body: any }>((resolve, reject) => {
      req.once('error', reject);
      req.once('response', (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.once('error', reject);
        res.once('end', () => resolve({ status: res.statusCode!, body: JSON.parse(text) }));
      });
    });
    req.flushHeaders();
    await headRead;
    await new Promise<void>((resolve) => req.write(body.slice(0, 1000), () => resolve()));

    gateway.child.kill('SIGTERM');
    const ready = `http://127.0.0.1:${gateway.healthPort}/public/health/ready`;
    while ((await fetch(ready)).status !== 503) await new Promise((r) => setTimeout(r, 50));
    await new Promise((r) => setTimeout(r, PAST_THE_OLD_CUT_MS));
    req.end(body.slice(1000));

    const { status, body: result } = await answer;
    expect(status).toBe(200);
    expect(result).toMatchObject({ total: 500, created: 500, failed: 0 });
    expect(result.results).toHaveLength(500);
    expect(result.batchId).toEqual(expect.any(String));
    expect(await exited).toBe(0);
  });
});
