/**
 * Automatic logoff against a backend whose idle timeout is one minute: the warning, "Stay
 * signed in", and the sign-in page's message once the session is over.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { launch, screenshot } from './browser';
import { start, type Running } from './harness';
import { routes } from '../src/routes';

let running: Running | undefined;
let browser: Browser;
let page: Page;

describe.skipIf(Boolean(process.env.E2E_BASE_URL))('automatic logoff', () => {
  beforeAll(async () => {
    running = await start({ env: { CAREVAULT_SESSION_IDLE_MINUTES: '1' }, name: 'backend-idle' });
    browser = await launch();
    const context = await browser.newContext({ baseURL: running.baseUrl, timezoneId: 'UTC' });
    context.setDefaultTimeout(40_000);
    page = await context.newPage();
  });

  afterAll(async () => {
    await browser?.close();
    await running?.stop();
  });

  it('warns before signing out, stays signed in when asked, then signs out with a clear message', async () => {
    await page.goto(routes.calendar());
    await page.getByLabel('Email').fill('clinician@demo.carevault.local');
    await page.getByLabel('Password').fill('carevault-demo');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Calendar', level: 1 }).waitFor();

    const warning = page.getByRole('alertdialog', { name: 'Are you still there?' });
    await warning.waitFor();
    await warning.getByText(/signed out in \d+ seconds?/).waitFor();
    await warning.getByRole('button', { name: 'Stay signed in' }).click();
    await warning.waitFor({ state: 'hidden' });
    await page.getByRole('heading', { name: 'Calendar', level: 1 }).waitFor();

    await warning.waitFor();
    await page.getByText('You were signed out after a period of inactivity').waitFor();
    await screenshot(page, 'signed-out-idle');

    await page.reload();
    await page.getByRole('button', { name: 'Sign in' }).waitFor(); // the server ended it too
  });
});
