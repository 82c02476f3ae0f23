/**
 * Service accounts in the practice settings (issue 25), against the real backend: an owner
 * creates one, copies its token (shown once), the token reads the API, the audit screen shows
 * only integration traffic when asked and names the account, and a revoked token stops at once.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { launch, screenshot } from './browser';
import { routes } from '../src/routes';

const OWNER = { email: 'owner@demo.carevault.local', password: 'carevault-demo' };
const ACCOUNT = `e2e sync ${Date.now()}`;

let browser: Browser;
let baseUrl: string;
let owner: Page;

async function clientsWith(token: string): Promise<number> {
  const answer = await fetch(`${baseUrl}/api/v1/clients`, { headers: { Authorization: `Bearer ${token}` } });
  return answer.status;
}

beforeAll(async () => {
  baseUrl = inject('baseUrl');
  browser = await launch();
  const context = await browser.newContext({ baseURL: baseUrl, viewport: { width: 1280, height: 900 } });
  context.setDefaultTimeout(15_000);
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

describe('service accounts in the web UI', () => {
  it('creates one, shows its token once, filters the audit log to it, and revokes the token', async () => {
    await owner.goto(routes.practice());
    const section = owner.getByRole('region', { name: 'Service accounts' });
    await section.getByLabel('Service account name').fill(ACCOUNT);
    await section.getByRole('button', { name: 'Create service account' }).click();
    const card = section.getByRole('article', { name: ACCOUNT });
    await card.waitFor();
    await card.getByRole('button', { name: `New token for ${ACCOUNT}` }).click();
    const secret = await card.getByLabel('New token').inputValue();
    expect(secret).toMatch(/^cvt_/);
    await screenshot(owner, 'service-account-token');
    expect(await clientsWith(secret)).toBe(200);

    await owner.goto(routes.audit());
    await owner.getByLabel('Who acted').selectOption('service_accounts');
    await owner.getByRole('button', { name: 'Apply filters' }).click();
    const table = owner.getByRole('table', { name: 'Audit events' });
    await table.getByRole('row').filter({ hasText: 'client.list' }).filter({ hasText: ACCOUNT }).first().waitFor();
    // The header row, then only the service account's events (once the filtered page is in).
    await expect
      .poll(async () => {
        const rows = await table.getByRole('row').allInnerTexts();
        return rows.length > 1 && rows.slice(1).every((row) => row.includes('(service account)'));
      })
      .toBe(true);

    await owner.goto(routes.practice());
    const again = owner.getByRole('region', { name: 'Service accounts' }).getByRole('article', { name: ACCOUNT });
    await again.getByRole('button', { name: /^Revoke/ }).click();
    await owner.getByRole('alertdialog').getByRole('button', { name: 'Revoke token' }).click();
    await again.getByText(/^Revoked /).waitFor();
    expect(await clientsWith(secret)).toBe(401);

    // Leave the shared demo practice as it was.
    await again.getByRole('button', { name: `Delete ${ACCOUNT}` }).click();
    await owner.getByRole('alertdialog').getByRole('button', { name: 'Delete service account' }).click();
    await again.waitFor({ state: 'detached' });
  });
});
