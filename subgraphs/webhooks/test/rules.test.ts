// The pure rules of webhooks: the retry schedule, what an attempt makes of a delivery, switching an endpoint off,
// which addresses may be reached, the rotation window, and the signature as a receiver checks it.
import { describe, expect, it } from 'vitest';
import { Webhook } from 'standardwebhooks';
import { signedHeaders, newSecret } from '../src/delivery/signing.js';
import { urlShapeProblem, urlTargetProblem } from '../src/delivery/url-guard.js';
import { isPublicAddress } from '../src/rules/address-policy.js';
import { afterAttempt } from '../src/rules/attempt-outcome.js';
import { DISABLE_AFTER_MS, shouldDisable } from '../src/rules/disabling.js';
import {
  DELIVERY_RETENTION_MS,
  RETENTION_SWEEP_EVERY_MS,
  retentionCutoff,
  sweepDue,
} from '../src/rules/retention.js';
import { nextAttemptAt, RETRY_WAITS_MS } from '../src/rules/retry-schedule.js';
import { ROTATION_OVERLAP_MS, rotateSecrets, signingSecrets } from '../src/rules/rotation.js';

const at = new Date('2027-03-01T10:00:00.000Z');
const plus = (ms: number) => new Date(at.getTime() + ms);

describe('retry schedule', () => {
  it('waits longer after each failure, for at least 24 hours in all, then gives up', () => {
    const waits = RETRY_WAITS_MS.map((_, i) => nextAttemptAt(i + 1, at)!.getTime() - at.getTime());
    expect(waits).toEqual([...RETRY_WAITS_MS]);
    for (let i = 1; i < waits.length; i++) expect(waits[i]).toBeGreaterThanOrEqual(waits[i - 1]!);
    expect(waits.reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(24 * 3_600_000);
    expect(nextAttemptAt(RETRY_WAITS_MS.length + 1, at)).toBeNull();
    expect(() => nextAttemptAt(0, at)).toThrow(RangeError);
  });

  it('an attempt delivers on a 2xx only; a failure is due again, then failed once the schedule is used up', () => {
    const fresh = { tentativi: [], inizioSerie: 0 };
    expect(afterAttempt(fresh, { statusCode: 204, durataMs: 3 }, at)).toMatchObject({
      stato: 'consegnata',
      prossimoTentativoAt: null,
      attempt: { statusCode: 204, errore: null },
    });
    for (const result of [{ statusCode: 301 }, { statusCode: 500 }, { errore: 'ECONNREFUSED' }])
      expect(afterAttempt(fresh, { durataMs: 1, ...result }, at)).toMatchObject({
        stato: 'in_attesa',
        prossimoTentativoAt: plus(RETRY_WAITS_MS[0]!).toISOString(),
      });
    const attempt = { at: '', statusCode: 500, durataMs: 1, errore: 'HTTP 500', prossimoTentativoAt: null };
    const used = { tentativi: RETRY_WAITS_MS.map(() => attempt), inizioSerie: 0 };
    expect(afterAttempt(used, { statusCode: 500, durataMs: 1 }, at).stato).toBe('fallita');
    // A resend starts a new series: the schedule counts from it.
    const resent = { ...used, inizioSerie: used.tentativi.length };
    expect(afterAttempt(resent, { statusCode: 500, durataMs: 1 }, at).prossimoTentativoAt).toBe(
      plus(RETRY_WAITS_MS[0]!).toISOString(),
    );
  });
});

describe('switching an endpoint off', () => {
  it('after 5 days of failures only, never for an endpoint that is not failing', () => {
    expect(shouldDisable(null, at)).toBe(false);
    expect(shouldDisable(new Date(at.getTime() - DISABLE_AFTER_MS + 1).toISOString(), at)).toBe(false);
    expect(shouldDisable(new Date(at.getTime() - DISABLE_AFTER_MS).toISOString(), at)).toBe(true);
  });
});

describe('addresses a webhook may reach', () => {
  it.each([
    ['8.8.8.8', true],
    ['172.32.0.1', true],
    ['2a00:1450:4001::1', true],
    ['::ffff:8.8.8.8', true],
    ['127.0.0.1', false],
    ['10.1.2.3', false],
    ['172.31.255.255', false],
    ['192.168.1.1', false],
    ['100.64.0.1', false],
    ['169.254.169.254', false],
    ['0.0.0.0', false],
    ['224.0.0.1', false],
    ['255.255.255.255', false],
    ['::1', false],
    ['::', false],
    ['fe80::1', false],
    ['fd00::1', false],
    ['::ffff:127.0.0.1', false],
    ['::ffff:a9fe:a9fe', false],
    ['64:ff9b::a00:1', false],
    ['not-an-ip', false],
  ])('%s → %s', (address, allowed) => expect(isPublicAddress(address)).toBe(allowed));

  it('refuses a URL whose host is or resolves to a non-public address, and one that does not resolve', async () => {
    expect(await urlTargetProblem('https://127.0.0.1/x')).toMatch(/127\.0\.0\.1/);
    expect(await urlTargetProblem('https://[::1]:8443/x')).toMatch(/::1/);
    const resolves = (addresses: string[]) => async () => addresses;
    expect(await urlTargetProblem('https://hooks.example/x', resolves(['93.184.216.34']))).toBeNull();
    // One private address among public ones is enough to refuse (DNS may answer either).
    expect(
      await urlTargetProblem('https://hooks.example/x', resolves(['93.184.216.34', '10.0.0.7'])),
    ).toMatch(/10\.0\.0\.7/);
    const fails = async () => Promise.reject(new Error('ENOTFOUND'));
    expect(await urlTargetProblem('https://nowhere.example/x', fails)).toMatch(/does not resolve/);
  });

  it('takes absolute http(s) URLs without credentials or fragment', () => {
    expect(urlShapeProblem('https://hooks.example/coperto')).toBeNull();
    expect(urlShapeProblem('ftp://hooks.example/')).toMatch(/http/);
    expect(urlShapeProblem('/relative')).toMatch(/absolute/);
    expect(urlShapeProblem('https://user:pw@hooks.example/')).toMatch(/password/);
    expect(urlShapeProblem('https://hooks.example/#x')).toMatch(/fragment/);
    expect(urlShapeProblem(`https://hooks.example/${'a'.repeat(2048)}`)).toMatch(/2048/);
    expect(urlShapeProblem('https://hooks.example/a b')).toMatch(/white space/);
    expect(urlShapeProblem('HTTPS://[2a00:1450:4001::1]:8443/x?y=1')).toBeNull();
  });
});

describe('rotation', () => {
  const first = { secret: 'whsec_a', creatoIl: at.toISOString() };

  it('the old secret signs beside the new one for 24 hours, then no more', () => {
    const rotated = rotateSecrets([first], 'whsec_b', at);
    expect(signingSecrets(rotated, plus(ROTATION_OVERLAP_MS - 1)).map((s) => s.secret)).toEqual([
      'whsec_b',
      'whsec_a',
    ]);
    expect(signingSecrets(rotated, plus(ROTATION_OVERLAP_MS)).map((s) => s.secret)).toEqual(['whsec_b']);
  });

  it('a second rotation keeps the first one’s promise and drops what expired', () => {
    const once = rotateSecrets([first], 'whsec_b', at);
    const twice = rotateSecrets(once, 'whsec_c', plus(3_600_000));
    expect(twice.map((s) => [s.secret, s.scadeIl])).toEqual([
      ['whsec_c', undefined],
      ['whsec_b', plus(3_600_000 + ROTATION_OVERLAP_MS).toISOString()],
      ['whsec_a', plus(ROTATION_OVERLAP_MS).toISOString()],
    ]);
    expect(rotateSecrets(twice, 'whsec_d', plus(2 * ROTATION_OVERLAP_MS)).map((s) => s.secret)).toEqual([
      'whsec_d',
      'whsec_c',
    ]);
  });

  it('each signature verifies with its own secret on the receiving side (standardwebhooks)', () => {
    const [a, b] = [newSecret(), newSecret()];
    expect(a).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const body = '{"id":"e1","type":"bookings.created"}';
    const headers = signedHeaders('e1', new Date(), body, [b, a]);
    expect(headers['webhook-signature']).toMatch(/^v1,\S+ v1,\S+$/);
    for (const secret of [a, b]) expect(new Webhook(secret).verify(body, headers)).toEqual(JSON.parse(body));
    expect(() => new Webhook(newSecret()).verify(body, headers)).toThrow();
    expect(() => new Webhook(a).verify(`${body} `, headers)).toThrow();
  });
});

describe('retention', () => {
  const now = new Date('2026-11-28T12:00:00.000Z');
  it('keeps finished deliveries 30 days', () => {
    expect(DELIVERY_RETENTION_MS).toBe(30 * 24 * 3_600_000);
    expect(retentionCutoff(now)).toBe('2026-10-29T12:00:00.000Z');
  });
  it('sweeps a tenant at most once an hour per instance', () => {
    expect(sweepDue(undefined, now)).toBe(true);
    expect(sweepDue(now.getTime() - RETENTION_SWEEP_EVERY_MS + 1, now)).toBe(false);
    expect(sweepDue(now.getTime() - RETENTION_SWEEP_EVERY_MS, now)).toBe(true);
  });
});
