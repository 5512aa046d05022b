import { chromium, type Browser } from 'playwright-core';

/** Debian's Chromium (scripts/install-test-servers.sh installs it), driven by playwright-core. */
export const CHROMIUM = '/usr/bin/chromium';

/** Headless, and quiet: no background traffic of Chromium's own (updates, sync, field trials). */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

/** How long a browser test waits for something to appear on the page. */
export const WAIT = { timeout: 20_000 };

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
}
