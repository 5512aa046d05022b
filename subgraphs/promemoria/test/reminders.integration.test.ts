// promemoria on the real servers (MongoDB-protocol store, NATS JetStream, mailpit's SMTP), as its process runs it:
// booking events in, reminders planned in the scheduler, due ones sent as an email and a reminders.due event,
// moved bookings moving them, cancelled ones dropping them, one due while no process ran sent on the next start;
// the rules from capacity's config events, a change planning the bookings to come again.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  createServiceTokenIssuer,
  createServiceTokenVerifier,
  createTokenVerifier,
  trustedTenantId,
} from '@coperto/auth';
import { buildEvent, connectNatsBus, createOutboxRelay, type CloudEvent, type EventBus } from '@coperto/bus';
import { createMemoryCache } from '@coperto/cache';
import {
  createLogger,
  createSubgraphExecutor,
  startEventConsumers,
  startWorkers,
  type SubgraphClient,
} from '@coperto/server-kit';
import { connectMongoStore, type DocumentStore } from '@coperto/store';
import {
  mintToken,
  newTenantId,
  serverUrls,
  startMailpit,
  TEST_JWT_SECRET,
  TEST_SERVICE_TOKEN_SECRET,
  uniqueName,
  type Mailpit,
} from '@coperto/testkit';
import { createSmtpMailer, type Mailer } from '../src/mailer.js';
import { mailSettingsOf } from '../src/mail-settings.js';
import { dueAtOf } from '../src/plan.js';
import { PromemoriaStore } from '../src/promemoria-store.js';
import { reminderHandler } from '../src/reminder-job.js';
import { createPromemoriaSubgraph } from '../src/subgraph.js';

const logger = createLogger({ name: 'promemoria-test', level: 'error' });
const T0 = Date.parse('2027-03-01T08:00:00.000Z');
const HOUR = 3_600_000;

describe('promemoria on MongoDB, NATS and SMTP', () => {
  let store: DocumentStore;
  let bus: EventBus;
  let mailpit: Mailpit;
  let time = T0;
  const database = uniqueName('promemoria');
  const due: CloudEvent[] = [];

  beforeAll(async () => {
    [store, bus, mailpit] = await Promise.all([
      connectMongoStore({ url: serverUrls().mongoUrl, database }),
      connectNatsBus({ url: serverUrls().natsUrl, name: 'promemoria-test' }),
      startMailpit(),
    ]);
  });
  afterAll(async () => {
    await bus?.close();
    await store?.close();
    await mailpit?.stop();
  });

  /** One promemoria process: consumer, scheduler worker (50 ms polls) and outbox relay. */
  const startPromemoria = async () => {
    const subgraph = createPromemoriaSubgraph(
      {
        store,
        cache: createMemoryCache(),
        verifier: createTokenVerifier({ kind: 'secret', secret: TEST_JWT_SECRET }),
        serviceTokens: createServiceTokenIssuer({ secret: TEST_SERVICE_TOKEN_SECRET, now: () => time }),
        subgraphs: {} as SubgraphClient,
        timeZone: 'Europe/Rome',
        onEventsWritten: () => relay.kick(),
        now: () => new Date(time),
      },
      mailSettingsOf({
        SMTP_URL: mailpit.smtpUrl,
        SMTP_FROM: 'Trattoria <sala@example.com>',
        PUBLIC_URL: 'https://coperto.example',
      }),
      { pollMs: 50 },
    );
    const relay = createOutboxRelay({
      source: store.outbox(subgraph.outboxCollections),
      bus,
      pollIntervalMs: 20,
    });
    await subgraph.init();
    const consumers = await startEventConsumers([subgraph], bus, logger, { scope: database });
    relay.start();
    const workers = startWorkers([subgraph]);
    const execute = createSubgraphExecutor(subgraph);
    return {
      reminders: async (tenantId: string, bookingId: string) => {
        const result = await execute(
          {
            query: `query($r: [_Any!]!) { _entities(representations: $r) { ... on Prenotazione { promemoria { orePrima dueAt stato motivo } } } }`,
            variables: { r: [{ __typename: 'Prenotazione', id: bookingId }] },
          },
          { authorization: `Bearer ${await mintToken({ tenantId })}` },
        );
        expect(result.errors).toBeUndefined();
        return (result.data!['_entities'] as Array<{ promemoria: unknown[] }>)[0]!.promemoria;
      },
      stop: async () => {
        await workers.stop();
        await consumers.stop();
        await relay.stop();
      },
    };
  };

  const bookingEvent = (
    tenantId: string,
    type: 'bookings.created' | 'bookings.updated' | 'bookings.cancelled',
    data: {
      id: string;
      startsAt: string;
      state: string;
      updatedAt: string;
      customerEmail?: string;
      lingua?: string;
    },
  ) =>
    buildEvent({
      tenantId: trustedTenantId(tenantId),
      type,
      source: '/test/promemoria',
      subject: data.id,
      data: { codice: 'K7Q2', covers: 2, customerName: 'Rita Greco', effectiveDurationMinutes: 120, ...data },
    });
  const publish = async (built: { message: { subject: string }; event: CloudEvent }) =>
    bus.publish(built.message.subject, built.event);

  it('sends a due reminder once: email with working links, and the event; moves and drops with the booking', async () => {
    const tenant = newTenantId();
    const subscription = bus.subscribe(`tenant.${tenant}.restaurant.reminders.due`);
    void (async () => {
      for await (const event of subscription) due.push(event);
    })();
    const running = await startPromemoria();
    try {
      const at = (ms: number) => new Date(T0 + ms).toISOString();
      await publish(
        bookingEvent(tenant, 'bookings.created', {
          id: 'b1',
          startsAt: at(30 * HOUR),
          state: 'confermata',
          updatedAt: at(0),
          customerEmail: 'rita@example.com',
          lingua: 'en',
        }),
      );
      await publish(
        bookingEvent(tenant, 'bookings.created', {
          id: 'b2',
          startsAt: at(30 * HOUR),
          state: 'confermata',
          updatedAt: at(0),
          customerEmail: 'gone@example.com',
        }),
      );
      await publish(
        bookingEvent(tenant, 'bookings.created', {
          id: 'b3',
          startsAt: at(30 * HOUR),
          state: 'pending',
          updatedAt: at(0),
          customerEmail: 'moved@example.com',
        }),
      );
      await vi.waitFor(async () => expect(await running.reminders(tenant, 'b3')).toHaveLength(1), {
        timeout: 10_000,
      });
      expect(await running.reminders(tenant, 'b1')).toEqual([
        { orePrima: 24, dueAt: at(6 * HOUR), stato: 'pending', motivo: null },
      ]);
      // b2 cancelled: its reminder is dropped; b3 moved 10 hours later: its reminder moves too.
      await publish(
        bookingEvent(tenant, 'bookings.cancelled', {
          id: 'b2',
          startsAt: at(30 * HOUR),
          state: 'annullata',
          updatedAt: at(1000),
        }),
      );
      await publish(
        bookingEvent(tenant, 'bookings.updated', {
          id: 'b3',
          startsAt: at(40 * HOUR),
          state: 'pending',
          updatedAt: at(1000),
          customerEmail: 'moved@example.com',
        }),
      );
      await vi.waitFor(
        async () =>
          expect((await running.reminders(tenant, 'b3'))[0]).toMatchObject({ dueAt: at(16 * HOUR) }),
        { timeout: 10_000 },
      );
      await vi.waitFor(
        async () => expect((await running.reminders(tenant, 'b2'))[0]).toMatchObject({ stato: 'cancelled' }),
        { timeout: 10_000 },
      );

      time = T0 + 6 * HOUR;
      await vi.waitFor(
        async () => expect((await running.reminders(tenant, 'b1'))[0]).toMatchObject({ stato: 'sent' }),
        { timeout: 10_000 },
      );
      await vi.waitFor(() => expect(due.map((e) => e.subject)).toEqual(['b1']), { timeout: 10_000 });
      const mails = await mailpit.messages();
      expect(mails.map((m) => m.To[0]!.Address)).toEqual(['rita@example.com']);
      const mail = await mailpit.message(mails[0]!.ID);
      // The Message-ID is the reminder's effect id, which is also the event's id.
      expect(mail.MessageID).toBe(`${due[0]!.id}@promemoria.coperto`);
      expect(mail.Subject).toMatch(/^Reminder: your table on /);
      const token = /#token=([^&\s]+)&azione=conferma/.exec(mail.Text)![1]!;
      expect(mail.Text).toContain(`https://coperto.example/prenota/gestisci#token=${token}&azione=annulla`);
      // The link's token is the booking's guest token, valid until the booking's end.
      const guest = await createServiceTokenVerifier(
        { secret: TEST_SERVICE_TOKEN_SECRET },
        { now: () => time },
      ).verify(decodeURIComponent(token));
      expect(guest).toMatchObject({ tenantId: tenant, grant: { role: 'guest', bookingId: 'b1' } });
      expect(due[0]!.data).toMatchObject({
        prenotazione: { id: 'b1', customerEmail: 'rita@example.com', endsAt: at(32 * HOUR) },
        hoursBefore: 24,
        email: true,
        gestione: {
          url: `https://coperto.example/prenota/gestisci#token=${token}`,
          expiresAt: at(32 * HOUR),
        },
      });
      // Nothing else is due: b3's moved reminder waits, b2's was dropped.
      time = T0 + 15 * HOUR;
      await new Promise((r) => setTimeout(r, 300));
      expect(due).toHaveLength(1);
      expect(await mailpit.messages()).toHaveLength(1);

      // b3's moved reminder, at its new due time, tells the guest the new time (Wednesday 3 March, 01:00 in Rome:
      // T0 + 40 h), never the old one (Tuesday 2 March, 15:00).
      time = T0 + 16 * HOUR;
      await vi.waitFor(() => expect(due.map((e) => e.subject)).toEqual(['b1', 'b3']), { timeout: 10_000 });
      const moved = (await mailpit.messages()).filter((m) => m.To[0]!.Address === 'moved@example.com');
      expect(moved).toHaveLength(1);
      const movedMail = await mailpit.message(moved[0]!.ID);
      expect(movedMail.Subject).toBe('Promemoria: il tuo tavolo mercoledì 3 marzo alle ore 01:00');
      expect(movedMail.Text).toContain('mercoledì 3 marzo alle ore 01:00');
      expect(movedMail.Text).not.toContain('2 marzo');
      expect(due[1]!.data).toMatchObject({
        prenotazione: { id: 'b3', startsAt: at(40 * HOUR) },
        dueAt: at(16 * HOUR),
      });
    } finally {
      await running.stop();
      subscription.unsubscribe();
    }
  });

  const configEvent = (tenantId: string, hours: number[], remindersUpdatedAt: string, updatedAt: string) =>
    buildEvent({
      tenantId: trustedTenantId(tenantId),
      type: 'capacity.config.updated',
      source: 'coperto/capacity',
      subject: 'config',
      // The rules as capacity's event carries them (under both names), with the other settings.
      data: {
        slotMinutes: 15,
        promemoria: hours.map((h) => ({ orePrima: h, hoursBefore: h })),
        reminders: hours.map((h) => ({ orePrima: h, hoursBefore: h })),
        remindersUpdatedAt,
        customized: true,
        updatedAt,
      },
    });

  it("plans by capacity's rules: a change re-plans the bookings to come, an older or repeated event changes nothing", async () => {
    const tenant = newTenantId();
    const sent: CloudEvent[] = [];
    const subscription = bus.subscribe(`tenant.${tenant}.restaurant.reminders.due`);
    void (async () => {
      for await (const event of subscription) sent.push(event);
    })();
    const running = await startPromemoria();
    const start = time;
    const at = (ms: number) => new Date(start + ms).toISOString();
    try {
      await publish(
        bookingEvent(tenant, 'bookings.created', {
          id: 'far',
          startsAt: at(30 * HOUR),
          state: 'confermata',
          updatedAt: at(0),
        }),
      );
      await publish(
        bookingEvent(tenant, 'bookings.created', {
          id: 'near',
          startsAt: at(5 * HOUR),
          state: 'confermata',
          updatedAt: at(0),
        }),
      );
      // Until capacity says otherwise, its default: 24 hours before ('near' is too close for it).
      await vi.waitFor(async () => expect(await running.reminders(tenant, 'far')).toHaveLength(1), {
        timeout: 10_000,
      });
      expect(await running.reminders(tenant, 'near')).toEqual([]);

      time = start + 60_000;
      await publish(configEvent(tenant, [48, 2], at(60_000), at(60_000)));
      // 48 hours before 'far' was before the change: not planned; 2 hours before each booking is.
      await vi.waitFor(
        async () =>
          expect(await running.reminders(tenant, 'near')).toEqual([
            { orePrima: 2, dueAt: at(3 * HOUR), stato: 'pending', motivo: null },
          ]),
        { timeout: 10_000 },
      );
      expect(await running.reminders(tenant, 'far')).toEqual([
        { orePrima: 2, dueAt: at(28 * HOUR), stato: 'pending', motivo: null },
      ]);

      // An older config's event arriving late, and the same one again, change nothing.
      await publish(configEvent(tenant, [24], at(0), at(30_000)));
      await publish(configEvent(tenant, [48, 2], at(60_000), at(60_000)));
      await new Promise((r) => setTimeout(r, 300));
      expect(await running.reminders(tenant, 'far')).toEqual([
        { orePrima: 2, dueAt: at(28 * HOUR), stato: 'pending', motivo: null },
      ]);

      // 'near''s 2-hour reminder is sent at 3 h; the removed 24-hour one of 'far' (due at 6 h) never is.
      time = start + 4 * HOUR;
      await vi.waitFor(() => expect(sent.map((e) => e.subject)).toEqual(['near']), { timeout: 10_000 });
      time = start + 7 * HOUR;
      await new Promise((r) => setTimeout(r, 400));
      expect(sent.map((e) => [e.subject, (e.data as { hoursBefore: number }).hoursBefore])).toEqual([
        ['near', 2],
      ]);
    } finally {
      await running.stop();
      subscription.unsubscribe();
    }
  });

  it('sends on start a reminder that came due while no process ran, if the booking has not started', async () => {
    const tenant = newTenantId();
    await mailpit.clear();
    const first = await startPromemoria();
    const at = (ms: number) => new Date(time + ms).toISOString();
    await publish(
      bookingEvent(tenant, 'bookings.created', {
        id: 'late',
        startsAt: at(26 * HOUR),
        state: 'confermata',
        updatedAt: at(0),
        customerEmail: 'late@example.com',
      }),
    );
    await publish(
      bookingEvent(tenant, 'bookings.created', {
        id: 'past',
        startsAt: at(25 * HOUR),
        state: 'confermata',
        updatedAt: at(0),
        customerEmail: 'past@example.com',
      }),
    );
    await vi.waitFor(async () => expect(await first.reminders(tenant, 'past')).toHaveLength(1), {
      timeout: 10_000,
    });
    await first.stop();
    // Down from before the reminders' time until after 'past' started (25 h) but before 'late' did (26 h).
    time += 25 * HOUR + 30 * 60_000;
    const second = await startPromemoria();
    try {
      await vi.waitFor(
        async () => expect((await second.reminders(tenant, 'late'))[0]).toMatchObject({ stato: 'sent' }),
        { timeout: 10_000 },
      );
      expect((await second.reminders(tenant, 'past'))[0]).toMatchObject({
        stato: 'skipped',
        motivo: 'booking_started',
      });
      expect((await mailpit.messages()).map((m) => m.To[0]!.Address)).toEqual(['late@example.com']);
      expect((await mailpit.message((await mailpit.messages())[0]!.ID)).Subject).toMatch(
        /^Promemoria: il tuo tavolo /,
      );
    } finally {
      await second.stop();
    }
  });

  it('sends an email at most once: an attempt after a holder died past its claim sends none; a refused one is retried', async () => {
    const tenant = trustedTenantId(newTenantId());
    await mailpit.clear();
    const now = new Date(time);
    const startsAt = new Date(time + 5 * HOUR).toISOString();
    const email = `once.${tenant}@example.com`.toLowerCase();
    await new PromemoriaStore(store.forTenant(tenant)).saveBooking({
      id: 'once',
      codice: 'ONCE01',
      state: 'confermata',
      startsAt,
      endsAt: new Date(time + 7 * HOUR).toISOString(),
      covers: 2,
      customerName: 'Rita',
      customerEmail: email,
      lingua: 'en',
      updatedAt: now.toISOString(),
    });
    const settings = mailSettingsOf({
      SMTP_URL: mailpit.smtpUrl,
      SMTP_FROM: 'Trattoria <sala@example.com>',
      PUBLIC_URL: 'https://coperto.example',
    });
    const deps = {
      store,
      serviceTokens: createServiceTokenIssuer({ secret: TEST_SERVICE_TOKEN_SECRET, now: () => time }),
      settings,
      timeZone: 'Europe/Rome',
      now: () => now,
    };
    const job = (effectId: string, attempt: number) => ({
      tenantId: tenant,
      key: `once/${effectId}`,
      dueAt: dueAtOf(startsAt, 4),
      payload: { bookingId: 'once', hoursBefore: 4 },
      version: 1,
      effectId,
      attempt,
      signal: new AbortController().signal,
    });
    const mailer = createSmtpMailer(settings)!;
    try {
      // The first holder sends, then dies before its done mark; the job's next holder runs it again.
      const handle = reminderHandler({ ...deps, mailer });
      expect(await handle(job('e1', 1))).toMatchObject({ outcome: 'done' });
      expect(await handle(job('e1', 2))).toMatchObject({ outcome: 'done' });
      const mine = async () => (await mailpit.messages()).filter((m) => m.To[0]?.Address === email);
      expect(await mine()).toHaveLength(1);

      // SMTP refuses the message at its end (nothing delivered): the claim is given back, and the retry sends.
      const refusing: Mailer = {
        send: async (_email, commit) => {
          expect(await commit()).toBe(true);
          throw Object.assign(new Error('421 try again later'), { responseCode: 421 });
        },
        close: () => {},
      };
      await expect(reminderHandler({ ...deps, mailer: refusing })(job('e2', 1))).rejects.toThrow('421');
      expect(await handle(job('e2', 2))).toMatchObject({ outcome: 'done' });
      expect(await mine()).toHaveLength(2);
    } finally {
      mailer.close();
    }
  });
});
