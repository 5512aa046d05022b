import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { natsConnectTarget } from '../src/nats-auth.js';

describe('natsConnectTarget', () => {
  it('takes a user and password out of the URL', () => {
    expect(natsConnectTarget('nats://app:s%40cret@nats:4222')).toEqual({
      servers: ['nats://nats:4222'],
      user: 'app',
      pass: 's@cret',
    });
  });

  it('reads a lone username in the URL as a token', () => {
    expect(natsConnectTarget('nats://t0ken@nats:4222')).toEqual({
      servers: ['nats://nats:4222'],
      token: 't0ken',
    });
  });

  it('strips credentials from every server of a list and keeps servers without them as they are', () => {
    expect(natsConnectTarget('nats://a:b@n1:4222, n2:4222,tls://a:b@n3:4443')).toEqual({
      servers: ['nats://n1:4222', 'n2:4222', 'tls://n3:4443'],
      user: 'a',
      pass: 'b',
    });
  });

  it('prefers explicit credentials over those of the URL', () => {
    expect(natsConnectTarget('nats://a:b@n1:4222', { user: 'u', password: 'p' })).toEqual({
      servers: ['nats://n1:4222'],
      user: 'u',
      pass: 'p',
    });
    expect(natsConnectTarget('nats://n1:4222', { token: 'tk' })).toEqual({
      servers: ['nats://n1:4222'],
      token: 'tk',
    });
  });

  it('authenticates with a creds file when one is given', () => {
    const dir = mkdtempSync(join(tmpdir(), 'nats-creds-'));
    try {
      const file = join(dir, 'app.creds');
      writeFileSync(file, 'not checked until connect');
      const target = natsConnectTarget('nats://n1:4222', { credsFile: file });
      expect(target.servers).toEqual(['nats://n1:4222']);
      expect(typeof target.authenticator).toBe('function');
      expect(target.user).toBeUndefined();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('adds no credentials when there are none', () => {
    expect(natsConnectTarget('nats://n1:4222')).toEqual({ servers: ['nats://n1:4222'] });
  });
});
