/**
 * Accounts an owner controls, in the browser against its own backend: a temporary password
 * that must be replaced at the next sign-in, disabling (the other browser is signed out on
 * its next request) and enabling, changing your own password, and API token scopes/expiry.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launch, screenshot } from './browser';
import { start, type Running } from './harness';
import { routes } from '../src/routes';

const OWNER = { email: 'owner@demo.carevault.local', password: 'carevault-demo' };
const CLINICIAN = 'clinician@demo.carevault.local';
const TEMPORARY = 'temporary-4821-pass';
const CHOSEN = 'clinician chose this one';

let running: Running | undefined;
let browser: Browser;
let ownerPage: Page;
let clinicianPage: Page;

async function context(): Promise<BrowserContext> {
  const created = await browser.newContext({ baseURL: running!.baseUrl, timezoneId: 'UTC', locale: 'en-GB' });
  created.setDefaultTimeout(20_000);
  return created;
}

async function signIn(page: Page, email: string, password: string): Promise<void> {
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

describe.skipIf(Boolean(process.env.E2E_BASE_URL))('accounts', () => {
  beforeAll(async () => {
    running = await start({ name: 'backend-accounts' });
    browser = await launch();
    ownerPage = await (await context()).newPage();
    clinicianPage = await (await context()).newPage();
  });

  afterAll(async () => {
    await browser?.close();
    await running?.stop();
  });

  it('an owner sets a temporary password, which must be replaced at the next sign-in', async () => {
    await ownerPage.goto(routes.team());
    await signIn(ownerPage, OWNER.email, OWNER.password);
    await ownerPage.getByRole('button', { name: `Temporary password for ${CLINICIAN}` }).click();
    const dialog = ownerPage.getByRole('dialog', { name: 'Set a temporary password' });
    await dialog.getByLabel('Temporary password').fill(TEMPORARY);
    await dialog.getByRole('button', { name: 'Set temporary password' }).click();
    await ownerPage.getByText('must choose a new password at their next sign-in').waitFor();
    await ownerPage.getByRole('row').filter({ hasText: CLINICIAN }).getByText('Active (temporary password)').waitFor();
    await screenshot(ownerPage, 'team-actions');

    await clinicianPage.goto(routes.calendar());
    await signIn(clinicianPage, CLINICIAN, TEMPORARY);
    await clinicianPage.getByText('Choose a new password').first().waitFor();
    await screenshot(clinicianPage, 'forced-password-change');
    await clinicianPage.getByLabel('Temporary password').fill(TEMPORARY);
    await clinicianPage.getByLabel('New password', { exact: true }).fill(CHOSEN);
    await clinicianPage.getByLabel('New password again').fill(CHOSEN);
    await clinicianPage.getByRole('button', { name: 'Save new password' }).click();
    await clinicianPage.getByRole('heading', { name: 'Calendar', level: 1 }).waitFor();
  });

  it('disabling signs the other browser out on its next request; enabling lets them back in', async () => {
    await ownerPage.getByRole('button', { name: `Disable ${CLINICIAN}` }).click();
    await ownerPage
      .getByRole('alertdialog', { name: 'Disable this account?' })
      .getByRole('button', { name: 'Disable account' })
      .click();
    await ownerPage.getByRole('row').filter({ hasText: CLINICIAN }).getByText('Disabled').waitFor();

    await clinicianPage.getByRole('link', { name: 'Clients' }).click();
    await clinicianPage.getByText('Your session has ended').waitFor();
    await signIn(clinicianPage, CLINICIAN, CHOSEN);
    await clinicianPage.getByText('Wrong email or password').waitFor();

    await ownerPage.getByRole('button', { name: `Enable ${CLINICIAN}` }).click();
    await ownerPage
      .getByRole('row')
      .filter({ hasText: CLINICIAN })
      .getByText(/^Active$/)
      .waitFor();
    await signIn(clinicianPage, CLINICIAN, CHOSEN);
    await clinicianPage.getByRole('heading', { name: 'Clients', level: 1 }).waitFor();
  });

  it('changes your own password and signs you out elsewhere', async () => {
    await clinicianPage.getByRole('link', { name: 'Your account' }).click();
    const elsewhere = await (await context()).newPage();
    await elsewhere.goto(routes.calendar());
    await signIn(elsewhere, CLINICIAN, CHOSEN);
    await elsewhere.getByRole('heading', { name: 'Calendar', level: 1 }).waitFor();

    await clinicianPage.getByLabel('Current password').fill('not my password');
    await clinicianPage.getByLabel('New password', { exact: true }).fill('yet another passphrase');
    await clinicianPage.getByLabel('New password again').fill('yet another passphrase');
    await clinicianPage.getByRole('button', { name: 'Change password' }).click();
    await clinicianPage.getByText('The current password is not right.').waitFor();
    await clinicianPage.getByLabel('Current password').fill(CHOSEN);
    await clinicianPage.getByRole('button', { name: 'Change password' }).click();
    await clinicianPage.getByText('1 other session was signed out.').waitFor();
    await screenshot(clinicianPage, 'change-password');

    await elsewhere.getByRole('link', { name: 'Clients' }).click();
    await elsewhere.getByText('Your session has ended').waitFor();
  });

  it('creates an API token limited to chosen scopes, with an expiry', async () => {
    await ownerPage.getByRole('link', { name: 'API tokens' }).click();
    await ownerPage.getByLabel('Token name').fill('calendar feed');
    await ownerPage.getByLabel('Read clients').uncheck();
    await ownerPage.getByLabel('Expires').selectOption({ label: 'In 30 days' });
    await ownerPage.getByRole('button', { name: 'Create token' }).click();
    const token = await ownerPage.getByLabel('New token').inputValue();
    expect(token.startsWith('cvt_')).toBe(true);
    const row = ownerPage.getByRole('row').filter({ hasText: 'calendar feed' });
    await row.getByText('Read appointments').waitFor();
    expect(await row.getByText('Never').count()).toBe(1); // last used: never; it does expire
    await screenshot(ownerPage, 'token-scopes');

    const answer = await fetch(`${running!.baseUrl}/api/v1/clients`, { headers: { Authorization: `Bearer ${token}` } });
    expect(answer.status).toBe(403);
    expect(((await answer.json()) as { error: { code: string } }).error.code).toBe('insufficient_scope');
  });
});
