import { readFileSync } from 'node:fs';
import { credsAuthenticator, type ConnectionOptions } from 'nats';

/** How the bus proves who it is to NATS. Explicit fields win over credentials in the URL. */
export interface NatsCredentials {
  /** Username (`--user` / an `authorization.users` entry); with `password`. */
  user?: string;
  password?: string;
  /** Token (`--auth` / `authorization.token`). */
  token?: string;
  /** Path of a `.creds` file (decentralised JWT + NKey auth, e.g. from `nsc`); read at connect time. */
  credsFile?: string;
}

/** The servers and authentication of a NATS connection, without the secrets in the server list. */
export type NatsConnectTarget = Pick<
  ConnectionOptions,
  'servers' | 'user' | 'pass' | 'token' | 'authenticator'
>;

/**
 * Turns `NATS_URL` (a comma-separated list; `nats://user:pass@host:port` or `nats://token@host:port`, the
 * forms nats-server documents) and explicit credentials into nats.js connect options. nats.js does not read
 * credentials from server URLs, and would keep them in its server list (and in the errors and logs that
 * name it): they are taken out here. Pure apart from reading `credsFile`.
 */
export function natsConnectTarget(url: string, credentials: NatsCredentials = {}): NatsConnectTarget {
  let fromUrl: { user?: string; password?: string; token?: string } = {};
  const servers = url
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .map((server) => {
      const parsed = parseServer(server);
      if (!parsed) return server;
      const user = decodeURIComponent(parsed.username);
      const password = decodeURIComponent(parsed.password);
      if (user && password) fromUrl = { user, password };
      else if (user) fromUrl = { token: user };
      parsed.username = '';
      parsed.password = '';
      return parsed.host ? `${parsed.protocol}//${parsed.host}` : server;
    });

  const target: NatsConnectTarget = { servers };
  if (credentials.credsFile) {
    const creds = readFileSync(credentials.credsFile);
    target.authenticator = credsAuthenticator(new Uint8Array(creds));
    return target;
  }
  const user = credentials.user ?? fromUrl.user;
  const password = credentials.password ?? fromUrl.password;
  const token = credentials.token ?? fromUrl.token;
  if (user !== undefined) {
    target.user = user;
    if (password !== undefined) target.pass = password;
  } else if (token !== undefined) {
    target.token = token;
  }
  return target;
}

function parseServer(server: string): URL | undefined {
  if (!server.includes('@')) return undefined;
  try {
    return new URL(server.includes('://') ? server : `nats://${server}`);
  } catch {
    return undefined;
  }
}
