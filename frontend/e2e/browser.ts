/** Debian's chromium driven by playwright-core: never a downloaded browser, loopback only. */
import { copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { FRONTEND, RESULTS } from './harness';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export function launch(): Promise<Browser> {
  // launch() gives every run a fresh, temporary user-data-dir.
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    timeout: 30_000,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

const SHOTS = join(RESULTS, 'screenshots');
/** Screenshots that the README shows; refreshed only with E2E_UPDATE_SCREENSHOTS=1. */
const COMMITTED = new Set(['calendar', 'note-editor']);

export async function screenshot(page: Page, name: string, { fullPage = true } = {}): Promise<void> {
  mkdirSync(SHOTS, { recursive: true });
  const file = join(SHOTS, `${name}.png`);
  // No focus ring or blinking caret in the picture (blur also saves a note, as it would anyway).
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur?.());
  await page.screenshot({ path: file, fullPage, animations: 'disabled', caret: 'hide' });
  if (process.env.E2E_UPDATE_SCREENSHOTS === '1' && COMMITTED.has(name)) {
    mkdirSync(join(FRONTEND, 'screenshots'), { recursive: true });
    copyFileSync(file, join(FRONTEND, 'screenshots', `${name}.png`));
  }
}
