// The guests' booking page GET /prenota in a real browser (Debian's chromium driven by playwright-core),
// embedded mode, at a phone's size and a desktop's: party and date, the times GET /api/disponibilita offers
// (a shortened one says until when), the option that holds the table while the guest types, the booking, the
// confirmation; the language by the browser's and the switch; nothing loaded from anywhere but the gateway.
// BOOKING_PAGE_SCREENSHOTS=<dir> also saves the steps' screenshots there (docs/images holds the committed ones).
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { mintToken, newTenantId } from '@coperto/testkit';
import { launchChromium, WAIT } from './support/browser.js';
import { sharedEmbedded } from './support/modes.js';
import type { Stack } from './support/stack.js';

const screenshotDir = process.env.BOOKING_PAGE_SCREENSHOTS;

const VIEWPORTS = {
  phone: { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 },
  desktop: { viewport: { width: 1280, height: 800 } },
} as const;

interface Offered {
  time: string;
  bookingDate: string;
  durationMinutes: number;
  shortened: boolean;
}

describe('booking page (embedded mode, chromium)', () => {
  let stack: Stack;
  let browser: Browser;
  /** The current test's restaurant (a tenant of its own): its administrator and the channel key the page books with. */
  let admin: string;
  let key: string;
  let day = 0;
  /** Every request any page made, to check that nothing left the gateway's origin. */
  const requested: string[] = [];
  const pageErrors: string[] = [];

  /** A fresh day of 2027 for each test. */
  const nextDate = () => `2027-05-${String(++day).padStart(2, '0')}`;

  /**
   * A restaurant of its own for one test: dinner every day 19:00–23:00, a party may be offered a table for 60
   * minutes or more before its next booking (shortened seatings).
   */
  async function restaurant() {
    const tenant = newTenantId();
    admin = await mintToken({ tenantId: tenant, admin: true });
    const channel = await stack.api('POST', '/api/canali', { token: admin, body: { name: 'Sito' } });
    expect(channel.status).toBe(201);
    key = channel.body.key;
    const config = await stack.api('PUT', '/api/capacity/config', {
      token: admin,
      body: {
        openingHours: Array.from({ length: 7 }, (_, weekday) => ({
          weekday,
          intervals: [{ open: '19:00', close: '23:00' }],
        })),
        shortenedMinMinutes: 60,
      },
    });
    expect(config.status).toBe(200);
  }

  async function table(seats: number) {
    const res = await stack.api('POST', '/api/tavoli', {
      token: admin,
      body: { name: `T${seats}-${Math.random().toString(36).slice(2, 6)}`, seats },
    });
    expect(res.status).toBe(201);
    return res.body as { id: string };
  }

  async function openPage(
    size: keyof typeof VIEWPORTS,
    path: string,
    locale = 'en-GB',
  ): Promise<{ context: BrowserContext; page: Page }> {
    const context = await browser.newContext({ ...VIEWPORTS[size], locale });
    const page = await context.newPage();
    page.on('request', (request) => requested.push(request.url()));
    page.on('console', (message) => {
      if (message.type() === 'error' && !/status of 4\d\d/.test(message.text()))
        pageErrors.push(message.text());
    });
    page.on('pageerror', (error) => pageErrors.push(`pageerror: ${error.message}`));
    await page.goto(`${stack.baseUrl}${path}`);
    return { context, page };
  }

  const shot = async (page: Page, name: string) => {
    if (!screenshotDir) return;
    mkdirSync(screenshotDir, { recursive: true });
    await page.screenshot({ path: join(screenshotDir, `${name}.png`), fullPage: true });
  };

  async function search(page: Page, covers: number, date: string) {
    await page.locator('#covers').fill(String(covers));
    await page.locator('#date').fill(date);
    await page.locator('#search button[type="submit"]').click();
    await page.locator('#times').waitFor(WAIT);
  }

  const shownTimes = (page: Page) =>
    page
      .locator('#time-list .time')
      .evaluateAll((buttons) =>
        buttons.map((b) => (b as unknown as { dataset: { time: string } }).dataset.time),
      );

  const offered = async (date: string, covers: number) => {
    const res = await stack.api('GET', `/api/disponibilita?data=${date}&coperti=${covers}&limite=50`, {
      token: admin,
    });
    expect(res.status).toBe(200);
    return res.body.times as Offered[];
  };

  const liveOptions = async () =>
    (await stack.api('GET', '/api/prenotazioni/opzioni', { token: admin })).body as Array<{
      id: string;
      bookingDate: string;
      tableIds: string[];
      expiresAt: string;
    }>;

  const bookingsOf = async (date: string) =>
    (await stack.api('GET', `/api/prenotazioni?dal=${date}&al=${date}`, { token: admin })).body as Array<
      Record<string, unknown>
    >;

  beforeAll(async () => {
    stack = await sharedEmbedded();
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await stack?.close();
  });

  it('serves both pages and their assets from the gateway, with a same-origin policy', async () => {
    for (const path of [
      '/prenota',
      '/prenota/gestisci',
      '/prenota/assets/booking.js',
      '/prenota/assets/prenota.css',
    ]) {
      const res = await fetch(`${stack.baseUrl}${path}`);
      expect(res.status, path).toBe(200);
      expect(res.headers.get('content-security-policy')).toContain("default-src 'self'");
      expect(res.headers.get('referrer-policy')).toBe('no-referrer');
    }
    expect((await fetch(`${stack.baseUrl}/prenota`)).headers.get('content-type')).toContain('text/html');
    expect((await fetch(`${stack.baseUrl}/prenota/assets/nope.js`)).status).toBe(404);
  });

  describe.each(Object.keys(VIEWPORTS) as Array<keyof typeof VIEWPORTS>)('at %s size', (size) => {
    it('offers the day’s times, holds the chosen one while the guest types, books it and confirms', async () => {
      await restaurant();
      const date = nextDate();
      const two = await table(2);
      // The one table is taken from 21:00: 19:00 in full, 19:15–20:00 shortened until 21:00.
      const taken = await stack.api('POST', '/api/prenotazioni', {
        token: admin,
        body: { covers: 2, bookingDate: `${date}T21:00`, customerName: 'Staff', tableIds: [two.id] },
      });
      expect(taken.status).toBe(201);
      const expected = await offered(date, 2);
      expect(expected.some((x) => x.shortened)).toBe(true);

      const { context, page } = await openPage(size, `/prenota#key=${key}`);
      await search(page, 2, date);
      expect(await shownTimes(page)).toEqual(expected.map((x) => x.time));
      const short = expected.find((x) => x.shortened)!;
      const shortButton = page.locator(`#time-list .time[data-time="${short.time}"]`);
      expect(await shortButton.textContent()).toContain('until 21:00');
      await shot(page, `booking-page-times-${size}`);

      const full = expected.find((x) => !x.shortened)!;
      await page.locator(`#time-list .time[data-time="${full.time}"]`).click();
      await page.locator('#details').waitFor(WAIT);
      await page.locator('#hold', { hasText: 'Table held for you' }).waitFor(WAIT);
      const held = (await liveOptions()).filter((o) => o.bookingDate === full.bookingDate);
      expect(held).toHaveLength(1);
      expect(Date.parse(held[0]!.expiresAt) - Date.now()).toBeLessThanOrEqual(600_000);

      await page.locator('#name').fill('Anna Bianchi');
      await page.locator('#book').click();
      await page.locator('#message', { hasText: 'phone number or an email' }).waitFor(WAIT);
      await page.locator('#phone').fill('+39 333 123 4567');
      expect(await page.locator('#message').isHidden()).toBe(true);
      await page.locator('#notes').fill('Window, please');
      await shot(page, `booking-page-details-${size}`);
      await page.locator('#book').click();
      await page.locator('#done').waitFor(WAIT);
      const code = (await page.locator('#done-code').textContent())!;
      expect(code).toMatch(/^[A-Z0-9]{6}$/);
      expect(await page.locator('#done-text').textContent()).toContain(`at ${full.time}`);
      await shot(page, `booking-page-done-${size}`);

      const booking = (await bookingsOf(date)).find((b) => b.codice === code)!;
      expect(booking).toMatchObject({
        customerName: 'Anna Bianchi',
        customerPhone: '+39 333 123 4567',
        notes: 'Window, please',
        covers: 2,
        bookingDate: full.bookingDate,
        tableIds: held[0]!.tableIds,
      });
      expect(booking).toMatchObject({ origine: 'online', canale: { nome: 'Sito' } });
      // The booking was made from the option: it holds nothing any more.
      expect((await liveOptions()).filter((o) => o.id === held[0]!.id)).toEqual([]);

      // The manage link on the confirmation carries the guest token of the booking's 201, and opens the booking.
      await page.locator('#manage-link').click();
      await page.locator('#booking').waitFor(WAIT);
      expect(new URL(page.url()).pathname).toBe('/prenota/gestisci');
      expect(await page.locator('#b-code').textContent()).toBe(code);
      const guestToken = decodeURIComponent(new URL(page.url()).hash.replace(/^#token=/, ''));
      const claims = JSON.parse(Buffer.from(guestToken.split('.')[1]!, 'base64url').toString('utf8'));
      expect(claims).toMatchObject({ role: 'guest', sub: booking.id });
      await context.close();
    });
  });

  it('books a shortened time for the duration it was offered', async () => {
    await restaurant();
    const date = nextDate();
    const two = await table(2);
    await stack.api('POST', '/api/prenotazioni', {
      token: admin,
      body: { covers: 2, bookingDate: `${date}T21:00`, customerName: 'Staff', tableIds: [two.id] },
    });
    const short = (await offered(date, 2)).find((x) => x.shortened)!;
    const { context, page } = await openPage('phone', `/prenota#key=${key}`);
    await search(page, 2, date);
    await page.locator(`#time-list .time[data-time="${short.time}"]`).click();
    await page.locator('#chosen', { hasText: 'needed again at 21:00' }).waitFor(WAIT);
    await page.locator('#name').fill('Luca');
    // A channel's booking names a phone (bookings keep no email yet: docs/channels.md).
    await page.locator('#phone').fill('+39 347 765 4321');
    await page.locator('#email').fill('luca@example.com');
    await page.locator('#book').click();
    await page.locator('#done').waitFor(WAIT);
    const code = await page.locator('#done-code').textContent();
    const booking = (await bookingsOf(date)).find((b) => b.codice === code)!;
    expect(booking).toMatchObject({ bookingDate: short.bookingDate, durationMinutes: short.durationMinutes });
    await context.close();
  });

  it('says on the confirmation when the restaurant asks a guarantee, and links to where it is given', async () => {
    await restaurant();
    const date = nextDate();
    await table(4);
    const policy = await stack.api('PUT', '/api/garanzie/politica', {
      token: admin,
      body: { rules: [{ type: 'deposit', amountPerCover: 1500, currency: 'eur' }] },
    });
    expect(policy.status, JSON.stringify(policy.body)).toBe(200);
    const { context, page } = await openPage('phone', `/prenota#key=${key}`);
    await search(page, 2, date);
    await page.locator('#time-list .time').first().click();
    await page.locator('#name').fill('Marta');
    await page.locator('#phone').fill('+39 347 111 0000');
    await page.locator('#book').click();
    await page.locator('#done').waitFor(WAIT);
    await page.locator('#guarantee-due', { hasText: 'a guarantee of €30.00' }).waitFor(WAIT);
    expect(await page.locator('#manage-link').textContent()).toBe('Give the guarantee');
    expect(await page.locator('#manage-link').getAttribute('href')).toMatch(/^\/prenota\/gestisci#token=/);
    await context.close();
  });

  it('says when the chosen time was taken meanwhile and shows the times there are now', async () => {
    await restaurant();
    const date = nextDate();
    const two = await table(2);
    const { context, page } = await openPage('desktop', `/prenota#key=${key}`);
    await search(page, 2, date);
    expect(await shownTimes(page)).toContain('20:00');
    const other = await stack.api('POST', '/api/prenotazioni', {
      token: admin,
      body: { covers: 2, bookingDate: `${date}T20:00`, customerName: 'Phone call', tableIds: [two.id] },
    });
    expect(other.status).toBe(201);
    await page.locator('#time-list .time[data-time="20:00"]').click();
    await page.locator('#message', { hasText: 'just taken' }).waitFor(WAIT);
    expect(await page.locator('#details').isHidden()).toBe(true);
    expect(await shownTimes(page)).toEqual((await offered(date, 2)).map((x) => x.time));
    expect(await shownTimes(page)).not.toContain('20:00');
    await context.close();
  });

  it('speaks Italian to an Italian browser, English to others, and switches on request', async () => {
    await restaurant();
    const { context, page } = await openPage('phone', `/prenota#key=${key}`, 'it-IT');
    await page.locator('h1', { hasText: 'Prenota un tavolo' }).waitFor(WAIT);
    expect(await page.locator('html').getAttribute('lang')).toBe('it');
    await page.locator('#lang').click();
    await page.locator('h1', { hasText: 'Book a table' }).waitFor(WAIT);
    // The choice is kept for this browser.
    await page.reload();
    await page.locator('h1', { hasText: 'Book a table' }).waitFor(WAIT);
    await context.close();
    const english = await openPage('phone', `/prenota#key=${key}`, 'de-DE');
    await english.page.locator('h1', { hasText: 'Book a table' }).waitFor(WAIT);
    await english.context.close();
  });

  it('says so when the key is missing or refused', async () => {
    const missing = await openPage('phone', '/prenota');
    await missing.page.locator('#message', { hasText: 'channel key is missing' }).waitFor(WAIT);
    expect(await missing.page.locator('#search button[type="submit"]').isDisabled()).toBe(true);
    await missing.context.close();
    const refused = await openPage('phone', '/prenota#key=not-a-key');
    await refused.page.locator('#date').fill(nextDate());
    await refused.page.locator('#search button[type="submit"]').click();
    await refused.page.locator('#message', { hasText: 'no longer active' }).waitFor(WAIT);
    await refused.context.close();
  });

  it('the manage page says so when its link carries no guest token', async () => {
    for (const path of ['/prenota/gestisci', '/prenota/gestisci#token=not-a-token']) {
      const { context, page } = await openPage('phone', path);
      await page.locator('#message', { hasText: 'Invalid link' }).waitFor(WAIT);
      expect(await page.locator('#booking').isHidden()).toBe(true);
      await context.close();
    }
  });

  it('loaded nothing from anywhere but the gateway, without a script error', () => {
    expect(requested.length).toBeGreaterThan(0);
    expect(requested.filter((url) => !url.startsWith(`${stack.baseUrl}/`))).toEqual([]);
    expect(pageErrors).toEqual([]);
  });
});
