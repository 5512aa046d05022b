import { afterEach, describe, expect, it, vi } from 'vitest';
import { mintRawToken } from '@coperto/testkit';
import { onTokenExpiry, tokenExpiry } from '../src/subscriptions/token-expiry.js';

describe('token expiry', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('reads exp from a compact JWT, and nothing from a token without one or a malformed one', async () => {
    expect(tokenExpiry(await mintRawToken({ tenantId: 't_x', exp: 1_900_000_000 }))).toBe(1_900_000_000);
    expect(tokenExpiry(await mintRawToken({ tenantId: 't_x' }))).toBeUndefined();
    expect(tokenExpiry('not-a-token')).toBeUndefined();
    expect(tokenExpiry('a.!!!.c')).toBeUndefined();
  });

  it('calls back when exp passes, not before, and not after cancellation', async () => {
    vi.useFakeTimers({ now: new Date('2026-01-01T00:00:00Z') });
    const exp = Date.parse('2026-01-01T00:01:00Z') / 1000;
    const token = await mintRawToken({ tenantId: 't_x', exp });
    const expired = vi.fn();
    onTokenExpiry(token, expired);
    vi.advanceTimersByTime(59_999);
    expect(expired).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(expired).toHaveBeenCalledTimes(1);

    const cancelled = vi.fn();
    const cancel = onTokenExpiry(await mintRawToken({ tenantId: 't_x', exp: exp + 60 }), cancelled);
    cancel();
    vi.advanceTimersByTime(120_000);
    expect(cancelled).not.toHaveBeenCalled();
  });

  it('waits past the longest timer delay by chaining timers', async () => {
    vi.useFakeTimers({ now: 0 });
    const expired = vi.fn();
    onTokenExpiry(await mintRawToken({ tenantId: 't_x', exp: 40 * 24 * 3600 }), expired);
    vi.advanceTimersByTime(30 * 24 * 3600 * 1000);
    expect(expired).not.toHaveBeenCalled();
    vi.advanceTimersByTime(10 * 24 * 3600 * 1000);
    expect(expired).toHaveBeenCalledTimes(1);
  });

  it('calls back at once for a token already past exp', async () => {
    const expired = vi.fn();
    onTokenExpiry(await mintRawToken({ tenantId: 't_x', exp: Math.floor(Date.now() / 1000) - 1 }), expired);
    expect(expired).toHaveBeenCalledTimes(1);
  });
});
