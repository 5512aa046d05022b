// Reminders through the gateway (docs/reminders.md): the rules in capacity's config (PUT /api/capacity/config
// promemoria|reminders), obeyed by promemoria; a booking's reminder comes due, promemoria publishes
// reminders.due once and emails the guest (the shared stacks send through a real SMTP server, mailpit) the manage
// links, whose token confirms the booking; a cancelled booking's reminder is dropped.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mintToken, newTenantId } from '@coperto/testkit';
import { MODES, sharedMailpit, startStack } from './support/modes.js';
import type { Stack } from './support/stack.js';

describe.each(MODES)('reminders (%s mode)', (mode) => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack(mode);
  });
  afterAll(async () => stack?.close());

  it('sends a due reminder once, with a working manage link; drops a cancelled booking’s', async () => {
    const tenant = newTenantId();
    const admin = await mintToken({ tenantId: tenant, admin: true });
    const staff = await mintToken({ tenantId: tenant });
    const path = '/api/capacity/config';
    const changes = stack.events(`tenant.${tenant}.restaurant.capacity.config.updated`);
    expect((await stack.api('GET', path, { token: staff })).body).toMatchObject({
      promemoria: [{ orePrima: 24 }],
      reminders: [{ hoursBefore: 24 }],
      remindersUpdatedAt: null,
      customized: false,
    });
    const bad = await stack.api('PUT', path, { token: admin, body: { promemoria: [{ orePrima: 0 }] } });
    expect(bad.status).toBe(400);
    const twice = await stack.api('PUT', path, {
      token: admin,
      body: { reminders: [{ hoursBefore: 2 }, { orePrima: 2 }] },
    });
    expect(twice.status).toBe(400);
    expect(JSON.stringify(twice.body)).toContain('reminders');
    expect((await stack.api('PUT', path, { token: staff, body: { promemoria: [] } })).status).toBe(403);
    const saved = await stack.api('PUT', path, { token: admin, body: { promemoria: [{ orePrima: 1 }] } });
    expect(saved.body).toMatchObject({
      promemoria: [{ orePrima: 1 }],
      reminders: [{ hoursBefore: 1 }],
      customized: true,
    });
    expect((await stack.api('GET', path, { token: staff })).body).toMatchObject({
      promemoria: [{ orePrima: 1 }],
      reminders: [{ hoursBefore: 1 }],
      remindersUpdatedAt: saved.body.remindersUpdatedAt,
    });
    // The change's event (checked against GET /asyncapi.json like every event a test receives) carries the rules
    // promemoria plans by; the refused PUTs made none.
    const [changed] = await changes.waitFor(1, 15_000);
    expect(changed!.data).toMatchObject({
      promemoria: [{ orePrima: 1, hoursBefore: 1 }],
      reminders: [{ orePrima: 1, hoursBefore: 1 }],
      remindersUpdatedAt: saved.body.remindersUpdatedAt,
    });
    changes.stop();
    // The old reminder settings route is gone: capacity's config is the one place of the rules.
    expect((await stack.api('GET', '/api/promemoria/impostazioni', { token: staff })).status).toBe(404);
    const tables = [];
    for (const name of ['R1', 'R2'])
      tables.push(
        (await stack.api('POST', '/api/tavoli', { token: admin, body: { name, seats: 4 } })).body.id,
      );
    const due = stack.events(`tenant.${tenant}.restaurant.reminders.due`);
    // Starting in an hour and 6 seconds: the 1-hour reminder is due in 6 seconds.
    const bookingDate = new Date(Date.now() + 3_600_000 + 6_000).toISOString();
    const email = `rita.${tenant}@example.com`.toLowerCase();
    const book = async (tableId: string) => {
      const res = await stack.api('POST', '/api/prenotazioni', {
        token: staff,
        body: {
          covers: 2,
          bookingDate,
          customerName: 'Rita Greco',
          customerEmail: email,
          tableIds: [tableId],
          state: 'pending',
        },
      });
      expect(res.status).toBe(201);
      return res.body as { id: string; startsAt: string };
    };
    const kept = await book(tables[0]);
    const dropped = await book(tables[1]);
    expect(
      (await stack.api('POST', `/api/prenotazioni/${dropped.id}/annulla`, { token: staff, body: {} })).status,
    ).toBe(200);

    const [event] = await due.waitFor(1, 30_000);
    expect(event).toMatchObject({ type: 'reminders.due', subject: kept.id });
    const data = event!.data as { hoursBefore: number; email: boolean; gestione: { url: string } };
    expect(data).toMatchObject({ hoursBefore: 1, email: true });
    // One email to the guest, its Message-ID the event's id, with the confirm and cancel links of the same token.
    const mailpit = await sharedMailpit();
    const mails = (await mailpit.messages()).filter((m) => m.To[0]?.Address === email);
    expect(mails).toHaveLength(1);
    const mail = await mailpit.message(mails[0]!.ID);
    expect(mail.MessageID).toBe(`${event!.id}@promemoria.coperto`);
    expect(mail.Text).toContain(`${data.gestione.url}&azione=conferma`);
    expect(mail.Text).toContain(`${data.gestione.url}&azione=annulla`);
    // The manage link's guest token reaches the booking and confirms it.
    const token = decodeURIComponent(/#token=([^&]+)$/.exec(data.gestione.url)![1]!);
    const booking = `/api/prenotazioni/${kept.id}`;
    expect((await stack.api('GET', booking, { token })).body).toMatchObject({
      id: kept.id,
      state: 'pending',
    });
    expect((await stack.api('POST', `${booking}/conferma`, { token, body: {} })).body.state).toBe(
      'confermata',
    );

    const reminders = await stack.graphql(
      staff,
      'query($a: ID!, $b: ID!) { a: prenotazione(id: $a) { promemoria { orePrima stato } } b: prenotazione(id: $b) { reminders { hoursBefore status } } }',
      { a: kept.id, b: dropped.id },
    );
    expect(reminders.body.data).toEqual({
      a: { promemoria: [{ orePrima: 1, stato: 'sent' }] },
      b: { reminders: [{ hoursBefore: 1, status: 'cancelled' }] },
    });
    // Once: the confirmation re-plans nothing (same start), and the dropped booking's reminder never comes.
    await new Promise((r) => setTimeout(r, 1500));
    expect(due.received.map((e) => e.subject)).toEqual([kept.id]);
    expect((await mailpit.messages()).filter((m) => m.To[0]?.Address === email)).toHaveLength(1);
    due.stop();
  });
});
