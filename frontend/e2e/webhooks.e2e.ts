/**
 * Webhooks in the web UI (issue 25), against the real backend: an owner adds an endpoint and
 * sees its signing secret once, is refused an internal address, turns it off and on, opens
 * its (empty) delivery log and deletes it.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { launch, screenshot } from './browser';
import { routes } from '../src/routes';

const OWNER = { email: 'owner@demo.carevault.local', password: 'carevault-demo' };
// A public address (an IP literal: no DNS needed); only the endpoint-disabled event is
// chosen, so nothing is ever sent to it during the test.
const URL = 'https://93.184.215.14/carevault-e2e';

let browser: Browser;
let owner: Page;

beforeAll(async () => {
  const baseUrl = inject('baseUrl');
  browser = await launch();
  const context = await browser.newContext({ baseURL: baseUrl, viewport: { width: 1280, height: 900 } });
  context.setDefaultTimeout(15_000);
  await context.route(/.*/, (route) => (route.request().url().startsWith(baseUrl) ? route.continue() : route.abort()));
  owner = await context.newPage();
  await owner.goto(routes.home());
  await owner.getByLabel('Email').fill(OWNER.email);
  await owner.getByLabel('Password').fill(OWNER.password);
  await owner.getByRole('button', { name: 'Sign in' }).click();
  await owner.getByRole('navigation', { name: 'Main' }).waitFor();
});

afterAll(async () => {
  await browser?.close();
});

describe('webhooks in the web UI', () => {
  it('adds an endpoint with its secret shown once, turns it off and on, and deletes it', async () => {
    await owner.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Webhooks' }).click();
    await owner.getByRole('heading', { name: 'Webhooks', level: 1 }).waitFor();
    await owner.getByText('No webhook endpoints yet').waitFor();

    // Refused by the server: an internal address.
    await owner.getByLabel('Endpoint URL').fill('https://10.0.0.1/hook');
    await owner.getByRole('button', { name: 'Add endpoint' }).click();
    await owner.getByText(/private address/).waitFor();

    await owner.getByLabel('Endpoint URL').fill(URL);
    await owner.getByLabel('Description').fill('e2e receiver');
    await owner.getByRole('checkbox', { name: /^Clients/ }).uncheck();
    await owner.getByRole('checkbox', { name: /^Appointments/ }).uncheck();
    await owner.getByRole('checkbox', { name: 'A webhook endpoint was disabled' }).check();
    await owner.getByRole('button', { name: 'Add endpoint' }).click();
    const secret = owner.getByLabel('Signing secret');
    await secret.waitFor();
    expect(await secret.inputValue()).toMatch(/^whsec_/);
    await screenshot(owner, 'webhooks-secret');
    await owner.getByRole('button', { name: 'I have stored it' }).click();
    await secret.waitFor({ state: 'detached' });

    const row = owner.getByRole('row').filter({ hasText: URL });
    await row.getByRole('cell', { name: 'Active' }).waitFor();
    await row.getByRole('button', { name: /Turn off/ }).click();
    await row.getByRole('cell', { name: 'Disabled', exact: true }).waitFor();
    await row.getByRole('button', { name: /Turn on/ }).click();
    await row.getByRole('cell', { name: 'Active' }).waitFor();

    await row.getByRole('button', { name: /Deliveries/ }).click();
    await owner.getByRole('heading', { name: `Deliveries to ${URL}` }).waitFor();
    await owner.getByText('Nothing delivered yet').waitFor();

    await row.getByRole('button', { name: /Delete/ }).click();
    const dialog = owner.getByRole('alertdialog', { name: 'Delete this endpoint?' });
    await dialog.getByRole('button', { name: 'Delete endpoint' }).click();
    await owner.getByText('No webhook endpoints yet').waitFor();
  });
});
