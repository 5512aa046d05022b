import { buildSubgraphSchema } from '@apollo/subgraph';
import { withDateScalars } from '@coperto/domain';
import { Scheduler } from '@coperto/scheduler';
import { loadSchemaFile, type Subgraph, type SubgraphWorker } from '@coperto/server-kit';
import { createPromemoriaContext, type PromemoriaContext, type PromemoriaDeps } from './context.js';
import type { Resolvers } from './generated/resolvers-types.js';
import { createSmtpMailer } from './mailer.js';
import type { MailSettings } from './mail-settings.js';
import { ensurePromemoriaIndexes, JOBS_COLLECTION } from './promemoria-store.js';
import { reminderEventConsumer } from './reminder-events.js';
import { reminderHandler } from './reminder-job.js';
import { Prenotazione } from './resolvers/Prenotazione.js';
import { Promemoria } from './resolvers/Promemoria.js';
import { rulesEventConsumer } from './rules-events.js';

export const typeDefs = loadSchemaFile(new URL('../schema.graphql', import.meta.url));

const resolvers: Resolvers = { Prenotazione, Promemoria };

/** Scheduler tuning a host may change (tests: a short poll). */
export interface PromemoriaOptions {
  pollMs?: number;
  onError?: (error: unknown) => void;
}

/**
 * The promemoria subgraph (booking reminders), ready to be served in-process or over HTTP: its durable consumer of
 * the booking events plans each booking's reminders in the scheduler, whose worker sends them when due; its
 * consumer of capacity's config events keeps the rules and plans the bookings to come again when they change.
 */
export function createPromemoriaSubgraph(
  deps: PromemoriaDeps,
  mail: MailSettings,
  options: PromemoriaOptions = {},
): Subgraph<PromemoriaContext> {
  const schema = withDateScalars(buildSubgraphSchema([{ typeDefs, resolvers }]));
  const now = deps.now ?? (() => new Date());
  const mailer = createSmtpMailer(mail);
  const pollMs = options.pollMs ?? mail.pollMs;
  const scheduler = new Scheduler({
    store: deps.store,
    collection: JOBS_COLLECTION,
    now,
    ...(pollMs ? { pollMs } : {}),
    ...(options.onError ? { onError: options.onError } : {}),
    handler: reminderHandler({
      store: deps.store,
      serviceTokens: deps.serviceTokens,
      mailer,
      settings: mail,
      timeZone: deps.timeZone,
      now,
    }),
  });
  const worker: SubgraphWorker = {
    start: () => scheduler.start(),
    stop: async () => {
      await scheduler.stop();
      mailer?.close();
    },
  };
  return {
    name: 'promemoria',
    typeDefs,
    schema,
    // The jobs' done marks carry the reminders.due events.
    outboxCollections: [JOBS_COLLECTION],
    createContext: (request) => createPromemoriaContext(deps, scheduler, request),
    init: async () => {
      await ensurePromemoriaIndexes(deps.store);
      await scheduler.init();
    },
    eventConsumers: [
      reminderEventConsumer(deps.store, scheduler),
      rulesEventConsumer(deps.store, scheduler, now),
    ],
    workers: [worker],
  };
}
export type { PromemoriaDeps } from './context.js';
export { mailSettingsOf, mailSettingsShape, type MailSettings } from './mail-settings.js';
