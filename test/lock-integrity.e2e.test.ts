import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mintToken, newTenantId } from '@coperto/testkit';
import { MODES, startStack } from './support/modes.js';
import type { Stack } from './support/stack.js';

/**
 * Locks are written only by lock operations: a status change or a PATCH racing a lock or an unlock never
 * erases an acknowledged lock nor brings back a released one (docs/guarantees.md).
 */
const TABLES = 20;
/** 6 → 120 races per test, run 20 at a time; `LOCK_RACE_ROUNDS=15` gives the 300 of the original report. */
const ROUNDS_PER_TABLE = Number(process.env.LOCK_RACE_ROUNDS ?? 6);

describe.each(MODES)('lock integrity under racing writes (%s mode)', (mode) => {
  let stack: Stack;
  let token: string;
  let admin: string;

  beforeAll(async () => {
    stack = await startStack(mode);
    const tenantId = newTenantId();
    token = await mintToken({ tenantId });
    admin = await mintToken({ tenantId, admin: true });
  });
  afterAll(async () => stack?.close());

  const post = (path: string, body: Record<string, unknown>) => stack.api('POST', path, { token, body });
  const newTables = async (label: string): Promise<string[]> =>
    Promise.all(
      Array.from({ length: TABLES }, async (_, i) => {
        const res = await post('/api/tavoli', { name: `${label}-${i}`, seats: 4 });
        expect(res.status).toBe(201);
        return res.body.id as string;
      }),
    );

  it('a status PUT without deviceId racing a lock never erases the acknowledged lock', async () => {
    const ids = await newTables('put-vs-lock');
    const lost: string[] = [];
    await Promise.all(
      ids.map(async (id) => {
        for (let round = 0; round < ROUNDS_PER_TABLE; round++) {
          const [lock, status] = await Promise.all([
            post(`/api/tavoli/${id}/lock`, { deviceId: 'device-a', ttl: 600 }),
            stack.api('PUT', `/api/tavoli/${id}/status`, {
              token,
              body: { status: round % 2 === 0 ? 'occupied' : 'free' },
            }),
          ]);
          expect(lock.status).toBe(200);
          expect(status.status).toBe(200);
          const other = await post(`/api/tavoli/${id}/lock`, { deviceId: 'device-b' });
          if (other.status !== 409) lost.push(`${id}#${round}`);
          const release = other.status === 200 ? 'device-b' : 'device-a';
          expect((await post(`/api/tavoli/${id}/unlock`, { deviceId: release })).body.released).toBe(true);
        }
      }),
    );
    expect(lost).toEqual([]);
  });

  it('a PATCH racing an unlock never brings the released lock back', async () => {
    const ids = await newTables('patch-vs-unlock');
    const resurrected: string[] = [];
    await Promise.all(
      ids.map(async (id) => {
        for (let round = 0; round < ROUNDS_PER_TABLE; round++) {
          expect((await post(`/api/tavoli/${id}/lock`, { deviceId: 'device-a', ttl: 600 })).status).toBe(200);
          const [patch, unlock] = await Promise.all([
            stack.api('PATCH', `/api/tavoli/${id}`, { token, body: { seats: 2 + (round % 5) } }),
            post(`/api/tavoli/${id}/unlock`, { deviceId: 'device-a' }),
          ]);
          expect(patch.status).toBe(200);
          expect(unlock.body.released).toBe(true);
          const other = await post(`/api/tavoli/${id}/lock`, { deviceId: 'device-b' });
          if (other.status !== 200) resurrected.push(`${id}#${round}`);
          if (other.status === 200) await post(`/api/tavoli/${id}/unlock`, { deviceId: 'device-b' });
          else await stack.api('DELETE', `/api/tavoli/${id}/lock`, { token: admin });
        }
      }),
    );
    expect(resurrected).toEqual([]);
  });
});
