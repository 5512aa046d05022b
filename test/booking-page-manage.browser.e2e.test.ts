// The guest's manage page GET /prenota/gestisci#token=<guest token> in Debian's chromium (playwright-core),
// embedded mode, at a phone's size and a desktop's: the booking shown, confirmed, changed (party, date and time,
// notes), a change nothing fits refused with the booking unchanged, and the cancellation; checked through the API.
// The booking is a channel's, and the page is opened with the guest token of its 201 (`gestione.token`).
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { mintToken, newTenantId } from '@coperto/testkit';
import { launchChromium, WAIT } from './support/browser.js';
import { SHARED_STACK_ENV, sharedEmbedded } from './support/modes.js';
import type { Stack } from './support/stack.js';

const VIEWPORTS = {
  phone: { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true },
  desktop: { viewport: { width: 1280, height: 800 } },
} as const;

type Size = keyof typeof VIEWPORTS;

/** In the page, the Stripe.js stand-in: what it recorded (`calls`) and its next answer (`answer`). */
type StandIn = { __stripe: { calls: unknown[][]; answer: unknown } };

interface Booking {
  id: string;
  garanzia?: Record<string, unknown> | null;
  codice: string;
  covers: number;
  bookingDate: string;
  notes?: string | null;
  state: string;
  tableIds: string[];
  gestione: { token: string; expiresAt: string };
}

describe('manage page (embedded mode, chromium)', () => {
  let stack: Stack;
  let browser: Browser;
  let admin: string;
  const tenantId = newTenantId();
  /** A booking channel's key: the bookings are the channel's, as the booking page makes them. */
  let key: string;
  let day = 0;
  const tableIds: string[] = [];
  const pageErrors: string[] = [];

  beforeAll(async () => {
    stack = await sharedEmbedded();
    admin = await mintToken({ tenantId, admin: true });
    const channel = await stack.api('POST', '/api/canali', { token: admin, body: { name: 'Sito' } });
    expect(channel.status).toBe(201);
    key = channel.body.key;
    // Dinner 19:00–23:00; one table of 2 and one of 4.
    const config = await stack.api('PUT', '/api/capacity/config', {
      token: admin,
      body: {
        openingHours: Array.from({ length: 7 }, (_, weekday) => ({
          weekday,
          intervals: [{ open: '19:00', close: '23:00' }],
        })),
      },
    });
    expect(config.status).toBe(200);
    for (const seats of [2, 4]) {
      const res = await stack.api('POST', '/api/tavoli', {
        token: admin,
        body: { name: `T${seats}`, seats },
      });
      expect(res.status).toBe(201);
      tableIds.push((res.body as { id: string }).id);
    }
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await stack?.close();
  });

  /** A channel's booking of 2 at 20:00 on a day of its own, placed by the autoAssign rule. */
  async function booking(notes?: string): Promise<Booking> {
    const res = await stack.api('POST', '/api/prenotazioni', {
      token: key,
      body: {
        covers: 2,
        bookingDate: `2027-06-${String(++day).padStart(2, '0')}T20:00`,
        customerName: 'Anna Bianchi',
        customerPhone: '+39 333 123 4567',
        autoAssign: true,
        ...(notes ? { notes } : {}),
      },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body as Booking;
  }

  /** The booking's manage link, with the guest token of the channel's 201. */
  const manageLink = (b: Booking) => `/prenota/gestisci#token=${encodeURIComponent(b.gestione.token)}`;

  const read = async (b: Booking) =>
    (await stack.api('GET', `/api/prenotazioni/${b.id}`, { token: admin })).body as Booking;

  async function open(
    size: Size,
    b: Booking,
    locale = 'en-GB',
    step = '',
  ): Promise<{ context: BrowserContext; page: Page }> {
    const context = await browser.newContext({ ...VIEWPORTS[size], locale });
    const page = await context.newPage();
    page.on('pageerror', (error) => pageErrors.push(`pageerror: ${error.message}`));
    await page.goto(`${stack.baseUrl}${manageLink(b)}${step}`);
    await page.locator('#booking').waitFor(WAIT);
    return { context, page };
  }

  describe.each(Object.keys(VIEWPORTS) as Size[])('at %s size', (size) => {
    it('shows the booking and confirms it', async () => {
      const b = await booking('Window, please');
      const { context, page } = await open(size, b);
      expect(await page.locator('#b-code').textContent()).toBe(b.codice);
      expect(await page.locator('#b-when').textContent()).toContain('at 20:00');
      expect(await page.locator('#b-covers').textContent()).toBe('2 people');
      expect(await page.locator('#b-notes').textContent()).toBe('Window, please');
      expect(await page.locator('#b-state').textContent()).toBe('To be confirmed');
      await page.locator('#confirm').click();
      await page.locator('#message', { hasText: 'Booking confirmed.' }).waitFor(WAIT);
      expect(await page.locator('#b-state').textContent()).toBe('Confirmed');
      expect(await page.locator('#confirm').isHidden()).toBe(true);
      expect((await read(b)).state).toBe('confermata');
      await context.close();
    });

    it('changes the party, the time and the notes', async () => {
      const b = await booking();
      const { context, page } = await open(size, b);
      await page.locator('#change').click();
      await page.locator('#edit').waitFor(WAIT);
      await page.locator('#e-covers').fill('4');
      await page.locator('#e-time').fill('21:00');
      await page.locator('#e-notes').fill('A high chair');
      await page.locator('#e-save').click();
      await page.locator('#message', { hasText: 'Booking changed.' }).waitFor(WAIT);
      expect(await page.locator('#b-when').textContent()).toContain('at 21:00');
      expect(await page.locator('#b-covers').textContent()).toBe('4 people');
      const changed = await read(b);
      expect(changed).toMatchObject({
        covers: 4,
        bookingDate: `${b.bookingDate.slice(0, 10)}T21:00:00`,
        notes: 'A high chair',
      });
      await context.close();
    });

    it('refuses a change nothing fits and leaves the booking as it was', async () => {
      const b = await booking();
      // Both tables are taken from 22:00: a move to 21:30 (two hours) fits neither.
      for (const id of tableIds) {
        const other = await stack.api('POST', '/api/prenotazioni', {
          token: admin,
          body: {
            covers: 2,
            bookingDate: `${b.bookingDate.slice(0, 10)}T22:00`,
            customerName: 'X',
            tableIds: [id],
          },
        });
        expect(other.status).toBe(201);
      }
      const { context, page } = await open(size, b);
      await page.locator('#change').click();
      await page.locator('#e-time').fill('21:30');
      await page.locator('#e-save').click();
      await page.locator('#message', { hasText: 'no room for that change' }).waitFor(WAIT);
      expect(await page.locator('#b-when').textContent()).toContain('at 20:00');
      expect(await read(b)).toMatchObject({ covers: 2, bookingDate: b.bookingDate, tableIds: b.tableIds });
      await context.close();
    });

    it('cancels after a second tap', async () => {
      const b = await booking();
      const { context, page } = await open(size, b);
      await page.locator('#cancel').click();
      await page.locator('#cancel-no').click();
      expect((await read(b)).state).toBe('pending');
      await page.locator('#cancel').click();
      await page.locator('#cancel-yes').click();
      await page.locator('#message', { hasText: 'Booking cancelled.' }).waitFor(WAIT);
      expect(await page.locator('#b-state').textContent()).toBe('Cancelled');
      expect(await page.locator('#actions').isHidden()).toBe(true);
      expect((await read(b)).state).toBe('annullata');
      await context.close();
    });
  });

  it("follows a reminder's links: &azione=conferma confirms, &azione=annulla only asks", async () => {
    const toConfirm = await booking();
    const confirming = await open('phone', toConfirm, 'en-GB', '&azione=conferma');
    await confirming.page.locator('#message', { hasText: 'Booking confirmed.' }).waitFor(WAIT);
    expect((await read(toConfirm)).state).toBe('confermata');
    await confirming.context.close();

    const toCancel = await booking();
    const cancelling = await open('phone', toCancel, 'en-GB', '&azione=annulla');
    await cancelling.page.locator('#cancel-yes').waitFor(WAIT);
    expect((await read(toCancel)).state).toBe('pending');
    await cancelling.page.locator('#cancel-yes').click();
    await cancelling.page.locator('#message', { hasText: 'Booking cancelled.' }).waitFor(WAIT);
    expect((await read(toCancel)).state).toBe('annullata');
    await cancelling.context.close();
  });

  it('speaks Italian to an Italian browser', async () => {
    const b = await booking();
    const { context, page } = await open('phone', b, 'it-IT');
    await page.locator('h1', { hasText: 'La tua prenotazione' }).waitFor(WAIT);
    expect(await page.locator('#b-state').textContent()).toBe('Da confermare');
    expect(await page.locator('#b-when').textContent()).toContain('alle 20:00');
    await context.close();
  });

  describe("the guarantee's payment step", () => {
    /**
     * Stripe.js as the page gets it from js.stripe.com, which this offline machine cannot reach: a stand-in served
     * for that URL (so the page's Content-Security-Policy is what lets it run) that records what the page asks of
     * Stripe and answers a confirmation with `window.__stripe.answer`.
     */
    const STRIPE_JS_STAND_IN = `
      window.__stripe = { calls: [], answer: {} };
      const record = (...call) => window.__stripe.calls.push(call);
      window.Stripe = (key, options) => {
        record('Stripe', key, options ?? null);
        return {
          elements(options) {
            record('elements', options);
            return {
              create(type) {
                record('create', type);
                return { mount(el) { record('mount', el.id); el.append(Object.assign(document.createElement('div'), { id: 'stand-in-form', textContent: 'Stripe' })); } };
              },
            };
          },
          async confirmPayment(options) { record('confirmPayment', options.redirect); return window.__stripe.answer; },
          async confirmSetup(options) { record('confirmSetup', options.redirect); return window.__stripe.answer; },
        };
      };`;
    const STRIPE_JS = 'https://js.stripe.com/v3/';
    /** In the page: what the stand-in recorded (`calls`) and its next answer (`answer`). */
    const stripeStandIn = () =>
      (globalThis as unknown as { __stripe: { calls: unknown[][]; answer: unknown } }).__stripe;
    const signer = new Stripe(SHARED_STACK_ENV.STRIPE_SECRET_KEY);

    /** A channel's booking of 2 at 20:30, when the tenant's policy asks a deposit of €10 a head; its guarantee. */
    async function guaranteedBooking() {
      const b = await stack.api('POST', '/api/prenotazioni', {
        token: key,
        body: {
          covers: 2,
          bookingDate: `2027-06-${String(++day).padStart(2, '0')}T20:30`,
          customerName: 'Anna Bianchi',
          customerEmail: 'anna@example.com',
          autoAssign: true,
        },
      });
      expect(b.status, JSON.stringify(b.body)).toBe(201);
      const booking = b.body as Booking;
      // The guest reads the guarantee (with its clientSecret) once garanzie has asked Stripe for it.
      const guarantee = await vi.waitFor(
        async () => {
          const res = await stack.api('GET', `/api/prenotazioni/${booking.id}`, {
            token: booking.gestione.token,
          });
          expect(res.body.garanzia?.clientSecret).toBeTruthy();
          return res.body.garanzia as Record<string, any>;
        },
        { timeout: 15_000, interval: 100 },
      );
      return { booking, guarantee };
    }

    beforeAll(async () => {
      const policy = await stack.api('PUT', '/api/garanzie/politica', {
        token: admin,
        body: {
          rules: [{ type: 'deposit', from: '20:30', to: '20:45', amountPerCover: 1000, currency: 'eur' }],
        },
      });
      expect(policy.status, JSON.stringify(policy.body)).toBe(200);
      const account = await stack.api('PUT', '/api/garanzie/stripe', {
        token: admin,
        body: { accountId: 'acct_1Coperto' },
      });
      expect(account.status, JSON.stringify(account.body)).toBe(200);
    });

    it("mounts Stripe's Payment Element with the booking's clientSecret; a refusal is shown, an accepted payment confirms the booking", async () => {
      const { booking: b, guarantee } = await guaranteedBooking();
      expect(guarantee).toMatchObject({
        stato: 'requested',
        modo: 'deposit',
        importo: 2000,
        valuta: 'eur',
        publishableKey: SHARED_STACK_ENV.STRIPE_PUBLISHABLE_KEY,
        stripeAccount: 'acct_1Coperto',
      });
      const context = await browser.newContext({ ...VIEWPORTS.phone, locale: 'en-GB' });
      await context.route(STRIPE_JS, (route) =>
        route.fulfill({ contentType: 'text/javascript', body: STRIPE_JS_STAND_IN }),
      );
      const page = await context.newPage();
      page.on('pageerror', (error) => pageErrors.push(`pageerror: ${error.message}`));
      await page.goto(`${stack.baseUrl}${manageLink(b)}`);
      await page.locator('#stand-in-form').waitFor(WAIT);
      expect(await page.locator('#pay-text').textContent()).toContain('a deposit of €20.00');
      const calls = () =>
        page.evaluate(() => (globalThis as unknown as StandIn).__stripe.calls as unknown[][]);
      expect(await calls()).toEqual([
        ['Stripe', SHARED_STACK_ENV.STRIPE_PUBLISHABLE_KEY, { stripeAccount: 'acct_1Coperto' }],
        ['elements', { clientSecret: guarantee.clientSecret, locale: 'en' }],
        ['create', 'payment'],
        ['mount', 'pay-element'],
      ]);

      // Stripe refuses (a declined card): its words are shown, the booking still waits.
      await page.evaluate(
        () =>
          ((globalThis as unknown as StandIn).__stripe.answer = {
            error: { message: 'Your card was declined.' },
          }),
      );
      await page.locator('#pay-submit', { hasText: 'Pay the deposit' }).click();
      await page.locator('#message', { hasText: 'Your card was declined.' }).waitFor(WAIT);
      expect((await read(b)).state).toBe('pending');

      // Stripe accepts: the page waits for the service, which hears of it by Stripe's signed webhook.
      await page.evaluate(() => ((globalThis as unknown as StandIn).__stripe.answer = {}));
      await page.locator('#pay-submit').click();
      await page.locator('#message', { hasText: 'waiting for the confirmation' }).waitFor(WAIT);
      expect((await calls()).filter((call) => call[0] === 'confirmPayment')).toEqual([
        ['confirmPayment', 'if_required'],
        ['confirmPayment', 'if_required'],
      ]);
      const intentId = (await read(b)).garanzia!.stripeIntentId as string;
      const event = JSON.stringify({
        id: `evt_${b.id}`,
        object: 'event',
        type: 'payment_intent.succeeded',
        data: {
          object: {
            id: intentId,
            object: 'payment_intent',
            metadata: { tenantId, bookingId: b.id, tentativo: '1' },
          },
        },
      });
      const delivered = await stack.api('POST', '/webhooks/stripe', {
        raw: event,
        headers: {
          'content-type': 'application/json',
          'stripe-signature': signer.webhooks.generateTestHeaderString({
            payload: event,
            secret: SHARED_STACK_ENV.STRIPE_WEBHOOK_SECRET,
          }),
        },
        openapi: false,
      });
      expect(delivered.body).toMatchObject({ esito: 'applied' });
      await page.locator('#message', { hasText: 'Guarantee received' }).waitFor(WAIT);
      expect(await page.locator('#b-state').textContent()).toBe('Confirmed (guarantee given)');
      expect(await page.locator('#pay').isHidden()).toBe(true);
      expect((await read(b)).state).toBe('caparra_pagata');
      await context.close();
    });

    it('says so when Stripe.js cannot be loaded', async () => {
      const { booking: b } = await guaranteedBooking();
      const context = await browser.newContext({ ...VIEWPORTS.desktop, locale: 'it-IT' });
      await context.route(STRIPE_JS, (route) => route.abort('internetdisconnected'));
      const page = await context.newPage();
      await page.goto(`${stack.baseUrl}${manageLink(b)}`);
      await page.locator('#message', { hasText: 'Il pagamento online non è disponibile' }).waitFor(WAIT);
      expect(await page.locator('#pay-text').textContent()).toContain('caparra di 20,00');
      expect(await page.locator('#pay-submit').isHidden()).toBe(true);
      await context.close();
    });
  });

  it('ran without a script error', () => {
    expect(pageErrors).toEqual([]);
  });
});
