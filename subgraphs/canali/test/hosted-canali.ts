import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'graphql';
import {
  cachedChannelDirectory,
  combineTokenVerifiers,
  createServiceTokenIssuer,
  createServiceTokenVerifier,
  createTokenVerifier,
  type ChannelDirectory,
} from '@coperto/auth';
import { createMemoryCache } from '@coperto/cache';
import {
  hostSubgraphsInProcess,
  lateChannelDirectory,
  type InProcessSubgraphs,
  type TypedDocumentNode,
} from '@coperto/server-kit';
import { openEmbeddedStore, type DocumentStore } from '@coperto/store';
import { TEST_JWT_SECRET, TEST_SERVICE_TOKEN_SECRET } from '@coperto/testkit';
import { createCanaliSubgraph } from '../src/subgraph.js';

export type Vars = Record<string, unknown>;
export const doc = (text: string) => parse(text) as TypedDocumentNode<Record<string, unknown>, Vars>;

/** The verifier a process builds (server-kit's connectDependencies), with a directory bound after hosting. */
function processVerifier(activeForMs: number) {
  const channels = lateChannelDirectory();
  const verifier = combineTokenVerifiers(
    {
      staff: createTokenVerifier({ kind: 'secret', secret: TEST_JWT_SECRET }),
      service: createServiceTokenVerifier({
        secret: TEST_SERVICE_TOKEN_SECRET,
        channels: cachedChannelDirectory(channels, { activeForMs }),
      }),
    },
    { maxTokenLength: 8192 },
  );
  return { verifier, bind: (directory: ChannelDirectory) => channels.bind(directory) };
}

/** The canali subgraph hosted in-process on an embedded store in a temporary directory (`now`: its clock). */
export async function hostCanali(now?: () => Date): Promise<{
  hosted: InProcessSubgraphs;
  store: DocumentStore;
  close: () => Promise<void>;
}> {
  const dir = mkdtempSync(join(tmpdir(), 'canali-'));
  const store = await openEmbeddedStore({ directory: dir, fsync: false });
  const { verifier, bind } = processVerifier(0);
  const hosted = await hostSubgraphsInProcess({
    factories: { canali: createCanaliSubgraph },
    deps: {
      store,
      cache: createMemoryCache(),
      verifier,
      serviceTokens: createServiceTokenIssuer({ secret: TEST_SERVICE_TOKEN_SECRET }),
      timeZone: 'Europe/Rome',
      onEventsWritten: () => {},
      ...(now ? { now } : {}),
    },
  });
  bind(hosted.channelDirectory);
  return {
    hosted,
    store,
    close: async () => {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The error a refused call rejects with. */
export const refusal = (promise: Promise<unknown>) =>
  promise.then(
    () => {
      throw new Error('expected a refusal');
    },
    (error: { code: string; details?: unknown; message: string }) => error,
  );
