import {
  cachedChannelDirectory,
  combineTokenVerifiers,
  createServiceTokenIssuer,
  createServiceTokenVerifier,
  createTokenVerifier,
  DEFAULT_MAX_TOKEN_LENGTH,
  resolveServiceTokenKey,
  type ServiceTokenIssuer,
  type TokenVerifier,
} from '@coperto/auth';
import {
  connectNatsBus,
  createMemoryBus,
  DEFAULT_REPLAY_LOG,
  type EventBus,
  type NatsCredentials,
} from '@coperto/bus';
import { connectRedisCache, createMemoryCache, type Cache } from '@coperto/cache';
import { connectMongoStore, openEmbeddedStore, type DocumentStore } from '@coperto/store';
import { authOptionsFromConfig } from './auth-from-config.js';
import { lateChannelDirectory, type LateChannelDirectory } from './channel-directories.js';
import type { Logger } from './logger.js';
import type { ServiceConfig } from './service-config.js';

export type RunMode = 'embedded' | 'distributed';

/** The long-lived clients of a process, made once at start. */
export interface Dependencies {
  mode: RunMode;
  store: DocumentStore | undefined;
  bus: EventBus;
  cache: Cache;
  /** Staff tokens (the JWT_* key) and the tokens the service issued (its own key), told apart by issuer. */
  verifier: TokenVerifier;
  /** Signs channel keys and guest tokens with the service-token key. */
  serviceTokens: ServiceTokenIssuer;
  /**
   * Whether a channel key's channel still exists (a deleted one's key is refused within 2 s): bound by the hosting
   * code to the canali subgraph's own directory, or to asking canali (`askingCanali`).
   */
  channels: LateChannelDirectory;
  /** Closes in reverse order of opening. Idempotent. */
  close(): Promise<void>;
}

/**
 * Embedded: the store on local disk (DATA_DIR), an in-process bus and a memory cache — nothing to install.
 * Distributed: MongoDB, NATS JetStream and Redis from MONGO_URL, NATS_URL, REDIS_URL (all required); NATS
 * credentials in NATS_URL or NATS_USER / NATS_PASSWORD, NATS_TOKEN, NATS_CREDS_FILE.
 */
export async function connectDependencies(
  config: ServiceConfig,
  options: { mode: RunMode; needsStore: boolean; logger: Logger; name: string },
): Promise<Dependencies> {
  const { mode, logger } = options;
  const auth = authOptionsFromConfig(config, mode);
  if (auth.embeddedSecret) {
    const { path, created } = auth.embeddedSecret;
    logger.warn(
      `No JWT_SECRET / JWT_PUBLIC_KEY / JWT_JWKS_URL set: tokens are verified with the secret in ${path} ` +
        `(${created ? 'created now' : 'created on the first start'}, mode 0600). ` +
        'Get a token with `pnpm token --tenant <id>`; anyone who can read that file can mint tokens.',
      { secretFile: path },
    );
  }
  const serviceKey = resolveServiceTokenKey({
    configured: config.SERVICE_TOKEN_SECRET,
    mode,
    dataDir: config.DATA_DIR,
    staffSecret: auth.options.kind === 'secret' ? auth.options.secret : undefined,
  });
  if (serviceKey.embedded?.created) {
    logger.warn(
      `No SERVICE_TOKEN_SECRET set: channel keys and guest tokens are signed with the key created now in ` +
        `${serviceKey.embedded.path} (mode 0600).`,
      { secretFile: serviceKey.embedded.path },
    );
  }
  const channels = lateChannelDirectory();
  const verifier = combineTokenVerifiers(
    {
      staff: createTokenVerifier(auth.options),
      service: createServiceTokenVerifier({
        secret: serviceKey.secret,
        channels: cachedChannelDirectory(channels),
      }),
    },
    { maxTokenLength: auth.options.maxTokenLength ?? DEFAULT_MAX_TOKEN_LENGTH },
  );
  const serviceTokens = createServiceTokenIssuer({ secret: serviceKey.secret });
  const closers: Array<() => Promise<void>> = [];
  try {
    if (mode === 'embedded') {
      const store = options.needsStore ? await openEmbeddedStore({ directory: config.DATA_DIR }) : undefined;
      if (store) closers.push(() => store.close());
      // The log is what a live screen resumes from after its socket dropped (embedded mode has no JetStream).
      const bus = createMemoryBus({ replayLog: DEFAULT_REPLAY_LOG });
      closers.push(() => bus.close());
      const cache = createMemoryCache();
      closers.push(() => cache.close());
      return withClose({ mode, store, bus, cache, verifier, serviceTokens, channels }, closers);
    }
    const missing = [
      options.needsStore && !config.MONGO_URL ? 'MONGO_URL' : '',
      !config.NATS_URL ? 'NATS_URL' : '',
      !config.REDIS_URL ? 'REDIS_URL' : '',
    ].filter(Boolean);
    if (missing.length > 0) throw new Error(`Distributed mode needs ${missing.join(', ')}`);
    const store = options.needsStore
      ? await connectMongoStore({ url: config.MONGO_URL!, database: config.MONGO_DATABASE })
      : undefined;
    if (store) closers.push(() => store.close());
    const bus = await connectNatsBus({
      url: config.NATS_URL!,
      name: options.name,
      ...natsCredentialsFrom(config),
    });
    closers.push(() => bus.close());
    const cache = await connectRedisCache({ url: config.REDIS_URL! });
    closers.push(() => cache.close());
    return withClose({ mode, store, bus, cache, verifier, serviceTokens, channels }, closers);
  } catch (error) {
    await closeAll(closers);
    throw error;
  }
}

/** NATS_USER / NATS_PASSWORD / NATS_TOKEN / NATS_CREDS_FILE, those that are set. */
export function natsCredentialsFrom(config: ServiceConfig): NatsCredentials {
  return {
    ...(config.NATS_USER ? { user: config.NATS_USER } : {}),
    ...(config.NATS_PASSWORD ? { password: config.NATS_PASSWORD } : {}),
    ...(config.NATS_TOKEN ? { token: config.NATS_TOKEN } : {}),
    ...(config.NATS_CREDS_FILE ? { credsFile: config.NATS_CREDS_FILE } : {}),
  };
}

function withClose(deps: Omit<Dependencies, 'close'>, closers: Array<() => Promise<void>>): Dependencies {
  let closing: Promise<void> | undefined;
  return { ...deps, close: () => (closing ??= closeAll(closers)) };
}

async function closeAll(closers: Array<() => Promise<void>>) {
  for (const close of [...closers].reverse()) await close().catch(() => {});
}
