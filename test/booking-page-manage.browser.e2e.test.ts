// The guest's manage page GET /prenota/gestisci#token=<guest token> in Debian's chromium (playwright-core),
// embedded mode, at a phone's size and a desktop's: the booking shown, confirmed, changed (party, date and time,
// notes), a change nothing fits refused with the booking unchanged, and the cancellation; checked through the API.
// The booking is a channel's, and the page is opened with the guest token of its 201 (`gestione.token`).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { mintToken, newTenantId } from '@coperto/testkit';
import { launchChromium, WAIT } from './support/browser.js';
import { sharedEmbedded } from './support/modes.js';
import type { Stack } from './support/stack.js';

const VIEWPORTS = {
  phone: { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true },
  desktop: { viewport: { width: 1280, height: 800 } },
} as const;

type Size = keyof typeof VIEWPORTS;

interface Booking {
  id: string;
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
  /** A booking channel's key: the bookings are the channel's, as the booking page makes them. */
  let key: string;
  let day = 0;
  const tableIds: string[] = [];
  const pageErrors: string[] = [];

  beforeAll(async () => {
    stack = await sharedEmbedded();
    admin = await mintToken({ tenantId: newTenantId(), admin: true });
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

  it('ran without a script error', () => {
    expect(pageErrors).toEqual([]);
  });
});
