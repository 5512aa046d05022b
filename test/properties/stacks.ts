/**
 * The service a generated suite runs against, in either mode, plus the one look behind the API the invariants
 * need: the table agendas (`tavoli_agenda`), read through the embedded store or MongoDB.
 */
import { trustedTenantId } from '@coperto/auth';
import { connectNatsBus } from '@coperto/bus';
import { connectMongoStore, type DocumentStore } from '@coperto/store';
import { serverUrls, uniqueName } from '@coperto/testkit';
import { sharedDistributed, sharedEmbedded } from '../support/modes.js';
import { collectorOf, type EventCollector, type Mode, type Stack } from '../support/stack.js';
import type { AgendaView } from './invariants.js';

export const AGENDA_COLLECTION = 'tavoli_agenda';

export interface PropertyStack {
  stack: Stack;
  readAgendas(tenant: string): Promise<AgendaView[]>;
  /**
   * Distributed: gap-free event watching (a JetStream ordered consumer, `bus.follow`, which sees every event
   * published once it resolved). A plain NATS subscription may not be registered on the server yet when the
   * program's first writes publish: a loaded machine then misses their events.
   */
  observe?: (subject: string) => Promise<EventCollector>;
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
  // The e2e files' shared stacks (test/support/modes.ts): each program works in tenants of its own.
  if (mode === 'embedded') {
    const stack = await sharedEmbedded();
    return { stack, readAgendas: agendaReader(stack.app.deps.store!), close: () => stack.close() };
  }
  const { mongoUrl, natsUrl } = serverUrls();
  const stack = await sharedDistributed();
  const store = await connectMongoStore({ url: mongoUrl, database: stack.database });
  const observer = await connectNatsBus({ url: natsUrl, name: uniqueName('props-observer') });
  return {
    stack,
    readAgendas: agendaReader(store),
    observe: async (subject) => collectorOf(subject, await observer.follow(subject)),
    close: async () => {
      await observer.close().catch(() => {});
      await store.close();
      await stack.close();
    },
  };
}
