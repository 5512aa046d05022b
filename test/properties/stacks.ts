/**
 * The service a generated suite runs against, in either mode, plus the one look behind the API the invariants
 * need: the table agendas (`tavoli_agenda`), read through the embedded store or MongoDB.
 */
import { trustedTenantId } from '@coperto/auth';
import { connectMongoStore, type DocumentStore } from '@coperto/store';
import { serverUrls, uniqueName } from '@coperto/testkit';
import { startDistributed, startEmbedded, type Mode, type Stack } from '../support/stack.js';
import type { AgendaView } from './invariants.js';

export const AGENDA_COLLECTION = 'tavoli_agenda';

export interface PropertyStack {
  stack: Stack;
  readAgendas(tenant: string): Promise<AgendaView[]>;
  close(): Promise<void>;
}

export function agendaReader(store: DocumentStore) {
  return async (tenant: string): Promise<AgendaView[]> => {
    const records = await store
      .forTenant(trustedTenantId(tenant))
      .collection<{ id: string; entries: AgendaView['entries'] }>(AGENDA_COLLECTION)
      .find({});
    return records.map((r) => ({ tableId: r.id, entries: r.entries ?? [] }));
  };
}

export async function startPropertyStack(mode: Mode): Promise<PropertyStack> {
  if (mode === 'embedded') {
    const stack = await startEmbedded();
    return { stack, readAgendas: agendaReader(stack.app.deps.store!), close: () => stack.close() };
  }
  const { mongoUrl, natsUrl, redisUrl } = serverUrls();
  const database = uniqueName('props');
  const stack = await startDistributed({ mongoUrl, natsUrl, redisUrl, database });
  const store = await connectMongoStore({ url: mongoUrl, database });
  return {
    stack,
    readAgendas: agendaReader(store),
    close: async () => {
      await store.close();
      await stack.close();
    },
  };
}
