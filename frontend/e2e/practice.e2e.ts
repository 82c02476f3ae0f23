/**
 * A group practice's owner and clinician (issue 24), against the real backend: practice
 * settings saved and shown after a reload; a trainee's draft on their worklist, signed, then
 * co-signed by the owner from theirs; a client's access history listing a chart read and
 * downloading as CSV; care-team chart access and break-the-glass; the audit screen naming
 * people and refusing an inverted date range.
 */
import { readFileSync } from 'node:fs';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { launch, screenshot } from './browser';
import { routes } from '../src/routes';

const OWNER = { email: 'owner@demo.carevault.local', password: 'carevault-demo', name: 'Dr. Demo Owner' };
const CLINICIAN = { email: 'clinician@demo.carevault.local', password: 'carevault-demo', name: 'Demo Clinician' };

let browser: Browser;
let baseUrl: string;
let owner: Page;
let clinician: Page;
let originalZone = '';
let signedNoteUrl = '';
let clientUrl = '';

async function newPage(): Promise<Page> {
  const context: BrowserContext = await browser.newContext({
    baseURL: baseUrl,
    viewport: { width: 1280, height: 900 },
    timezoneId: 'UTC',
    locale: 'en-GB',
    acceptDownloads: true,
  });
  context.setDefaultTimeout(15_000);
  await context.route(/.*/, (route) =>
    route.request().url().startsWith(baseUrl) ||
    route.request().url().startsWith('data:') ||
    route.request().url().startsWith('blob:')
      ? route.continue()
      : route.abort(),
  );
  return context.newPage();
}

async function signIn(page: Page, who: { email: string; password: string }): Promise<void> {
  await page.getByLabel('Email').fill(who.email);
  await page.getByLabel('Password').fill(who.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('navigation', { name: 'Main' }).waitFor();
}

/** A reloaded tab with no other tab open asks for the password before it can save. */
async function ensureCanWrite(page: Page, who: { password: string }): Promise<void> {
  const confirm = page.getByRole('button', { name: 'Confirm password' });
  if (await confirm.isVisible()) {
    await confirm.click();
    const dialog = page.getByRole('dialog', { name: 'Confirm your password' });
    await dialog.getByLabel('Password').fill(who.password);
    await dialog.getByRole('button', { name: 'Confirm' }).click();
    await confirm.waitFor({ state: 'detached' });
  }
}

async function setRequiresCosign(on: boolean): Promise<void> {
  await owner.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Team' }).click();
  const box = owner.getByRole('checkbox', { name: `Requires co-signature for ${CLINICIAN.name}` });
  await box.waitFor();
  if ((await box.isChecked()) !== on) {
    await box.click();
    // Saved when the team, read again, says so (the box shows the server's value).
    await owner
      .getByRole('checkbox', { name: `Requires co-signature for ${CLINICIAN.name}`, checked: on })
      .and(owner.locator(':enabled'))
      .waitFor();
  }
}

beforeAll(async () => {
  baseUrl = inject('baseUrl');
  browser = await launch();
  owner = await newPage();
  clinician = await newPage();
  await owner.goto(routes.home());
  await signIn(owner, OWNER);
});

afterAll(async () => {
  // Leave the practice as it was (a shared server, E2E_BASE_URL, is used by others too).
  try {
    if (originalZone) {
      await owner.goto(routes.practice());
      await ensureCanWrite(owner, OWNER);
      await owner.getByLabel('Time zone').fill(originalZone);
      await owner.getByLabel('Late entry after (hours)').fill('72');
      await owner.getByLabel('Every clinician sees every client’s chart').check();
      await owner.getByLabel(/Allow break-the-glass/).uncheck();
      await owner.getByRole('button', { name: 'Save settings' }).click();
      await owner.getByText(/Practice settings saved|Nothing changed/).waitFor();
    }
    await setRequiresCosign(false);
  } finally {
    await browser?.close();
  }
});

describe('a group practice in the web UI', () => {
  it('saves the practice settings, names what is wrong, and shows the saved zone after a reload', async () => {
    await owner.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Practice settings' }).click();
    await owner.getByRole('heading', { name: 'Practice settings', level: 1 }).waitFor();
    const zone = owner.getByLabel('Time zone');
    originalZone = await zone.inputValue();
    expect(originalZone).not.toBe('');

    // Checked here before sending: a region is two letters.
    await owner.getByLabel('Phone region').fill('U1');
    await owner.getByRole('button', { name: 'Save settings' }).click();
    await owner.getByText('Two letters, the ISO 3166 code').waitFor();
    await owner.getByRole('button', { name: 'Undo changes' }).click();

    // Refused by the server, which names the field.
    await zone.fill('Mars/Olympus_Mons');
    await owner.getByRole('button', { name: 'Save settings' }).click();
    await owner
      .locator('.field-invalid')
      .filter({ has: owner.getByLabel('Time zone') })
      .locator('.field-error')
      .waitFor();

    const next = originalZone === 'Europe/Berlin' ? 'America/New_York' : 'Europe/Berlin';
    await zone.fill(next);
    await owner.getByLabel('Late entry after (hours)').fill('48');
    await owner.getByRole('button', { name: 'Save settings' }).click();
    await owner.getByRole('status').filter({ hasText: 'Practice settings saved.' }).waitFor();
    await screenshot(owner, 'practice-settings');

    await owner.reload();
    await owner.getByRole('heading', { name: 'Practice settings', level: 1 }).waitFor();
    expect(await owner.getByLabel('Time zone').inputValue()).toBe(next);
    expect(await owner.getByLabel('Late entry after (hours)').inputValue()).toBe('48');
    const me = (await owner.evaluate(() => fetch('/api/v1/auth/me').then((r) => r.json()))) as {
      workspace: { time_zone: string; late_entry_hours: number };
    };
    expect(me.workspace).toMatchObject({ time_zone: next, late_entry_hours: 48 });
  });

  it('lists a trainee’s draft on their worklist; once signed it awaits the owner’s co-signature', async () => {
    await ensureCanWrite(owner, OWNER);
    await setRequiresCosign(true);

    await clinician.goto(routes.worklist());
    await signIn(clinician, CLINICIAN);
    await clinician.getByRole('heading', { name: 'Notes to finish', level: 1 }).waitFor();
    const drafts = clinician.getByRole('table', { name: 'Your unsigned notes' });
    const firstDraft = drafts.getByRole('link', { name: /^Note of / }).first();
    await firstDraft.waitFor();
    const draftCount = await drafts.getByRole('link', { name: /^Note of / }).count();
    await screenshot(clinician, 'worklist-drafts');

    await firstDraft.click();
    await clinician.getByLabel('Plan').fill('Continue weekly sessions; review in a month.');
    await clinician.getByLabel('Plan').blur();
    await clinician
      .getByRole('status')
      .filter({ hasText: /^All changes saved/ })
      .waitFor();
    signedNoteUrl = new URL(clinician.url()).pathname;
    await clinician.getByRole('button', { name: 'Finalize note' }).click();
    await clinician
      .getByRole('dialog', { name: 'Finalize this note?' })
      .getByRole('button', { name: 'Finalize', exact: true })
      .click();
    await clinician.getByText('Awaiting co-signature').waitFor();
    await clinician.getByText(/^Signed by you on /).waitFor();
    // The author is never offered to co-sign their own note.
    expect(await clinician.getByRole('button', { name: 'Co-sign' }).count()).toBe(0);

    await clinician.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Notes to finish' }).click();
    await expect
      .poll(() => clinician.getByRole('table', { name: 'Your unsigned notes' }).getByRole('link').count())
      .toBe(draftCount - 1);
  });

  it('lets the owner co-sign it from their worklist, attesting the co-signature statement', async () => {
    await owner.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Notes to finish' }).click();
    const awaiting = owner.getByRole('table', { name: 'Notes awaiting your co-signature' });
    const row = awaiting.getByRole('row').filter({ has: owner.locator(`a[href="${signedNoteUrl}"]`) });
    await row.waitFor();
    await row.getByText(CLINICIAN.name).waitFor();
    await screenshot(owner, 'worklist-cosign');
    await row.getByRole('link').click();

    await owner.getByText('Awaiting co-signature').waitFor();
    await owner.getByText(`Signed by ${CLINICIAN.name} on `).waitFor();
    await owner.getByRole('button', { name: 'Co-sign' }).click();
    const dialog = owner.getByRole('dialog', { name: 'Co-sign this note?' });
    await dialog.getByText('By co-signing you attest:').waitFor();
    await dialog.getByRole('button', { name: 'Co-sign note' }).click();
    await owner.getByText(/^Co-signed by you on /).waitFor();
    await screenshot(owner, 'note-cosigned');
    expect(await owner.getByRole('button', { name: 'Co-sign' }).count()).toBe(0);

    await owner.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Notes to finish' }).click();
    await owner.getByRole('heading', { name: 'Awaiting your co-signature' }).waitFor();
    await owner.locator(`a[href="${signedNoteUrl}"]`).waitFor({ state: 'detached' });
  });

  it('shows the client’s access history with names, filters it, and downloads it as CSV', async () => {
    await owner.goto(signedNoteUrl);
    const breadcrumb = owner.getByRole('navigation', { name: 'Breadcrumb' }).getByRole('link').nth(1);
    await breadcrumb.waitFor();
    clientUrl = (await breadcrumb.getAttribute('href')) ?? '';
    await breadcrumb.click(); // the owner's chart read
    await owner.getByRole('tab', { name: 'Access history' }).click();
    const table = owner.getByRole('table', { name: 'Access history' });
    await table.getByRole('row').filter({ hasText: 'Chart read' }).filter({ hasText: OWNER.name }).first().waitFor();
    await table.getByRole('row').filter({ hasText: CLINICIAN.name }).first().waitFor();
    await screenshot(owner, 'access-history');

    await owner.getByLabel('What').selectOption('chart_read');
    await owner.getByLabel('Who').selectOption({ label: OWNER.name });
    await owner.getByRole('button', { name: 'Apply filters' }).click();
    await expect
      .poll(async () => {
        const rows = await table.getByRole('row').allInnerTexts();
        return rows.slice(1).every((text) => text.includes('Chart read') && text.includes(OWNER.name));
      })
      .toBe(true);

    const [download] = await Promise.all([
      owner.waitForEvent('download'),
      owner.getByRole('button', { name: 'Download CSV' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^access-log-.*\.csv$/);
    const csv = readFileSync(await download.path(), 'utf8');
    const [header, ...lines] = csv.trim().split(/\r?\n/);
    expect(header).toContain('occurred_at,kind,action');
    expect(lines.length).toBeGreaterThan(0);
    expect(lines.every((line) => line.includes('chart_read') && line.includes(OWNER.name))).toBe(true);

    // An inverted range is refused before anything is asked.
    await owner.getByLabel('From').fill('2026-03-02T10:00');
    await owner.getByLabel('Until').fill('2026-03-01T10:00');
    await owner.getByRole('button', { name: 'Apply filters' }).click();
    await owner.getByText('“From” must be before “Until”.').waitFor();
    expect(clientUrl).toMatch(/^\/clients\//);
  });

  it('lets the owner limit charts to care teams, and a clinician outside the team open one by stating why', async () => {
    await owner.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Practice settings' }).click();
    await owner.getByLabel('Clinicians see only the charts of clients whose care team they are on').check();
    await owner.getByLabel(/Allow break-the-glass/).check();
    await owner.getByRole('button', { name: 'Save settings' }).click();
    await owner.getByRole('status').filter({ hasText: 'Practice settings saved.' }).waitFor();

    // The clinician is taken off this client's care team (whoever is on it).
    await owner.goto(clientUrl);
    const panel = owner.getByRole('region', { name: 'Care team' });
    await panel.getByText('Only these clinicians (and owners) see this chart.').waitFor();
    await panel.getByRole('button', { name: 'Change care team' }).click();
    const dialog = owner.getByRole('dialog', { name: 'Change the care team' });
    const box = dialog.getByRole('checkbox', { name: new RegExp(CLINICIAN.name) });
    await box.uncheck();
    await dialog.getByRole('checkbox', { name: new RegExp(OWNER.name) }).check();
    await dialog.getByRole('button', { name: 'Save care team' }).click();
    await dialog.waitFor({ state: 'detached' });
    await panel.getByRole('list', { name: 'Care team members' }).getByText(OWNER.name).waitFor();
    await screenshot(owner, 'client-care-team');
    expect(await panel.getByText(CLINICIAN.name).count()).toBe(0);

    await clinician.goto(clientUrl);
    await clinician.getByText('This chart is outside your care team').waitFor();
    await clinician.getByRole('button', { name: 'State a reason to open this chart' }).click();
    const ask = clinician.getByRole('dialog', { name: 'State a reason to open this chart' });
    await ask.getByLabel('Why you need this chart now').fill('urgent');
    await ask.getByRole('button', { name: 'Open the chart for 60 minutes' }).click();
    await ask.getByText('At least 10 characters.').waitFor();
    await ask.getByLabel('Why you need this chart now').fill('Covering for the client’s clinician today');
    await ask.getByRole('button', { name: 'Open the chart for 60 minutes' }).click();
    await clinician.getByRole('heading', { name: 'Details' }).waitFor();
    await screenshot(clinician, 'break-the-glass-opened');

    await owner.getByRole('tab', { name: 'Access history' }).click();
    await owner.getByRole('button', { name: 'Show break-the-glass openings' }).click();
    const openings = owner.getByRole('list', { name: 'Break-the-glass openings' });
    await openings.getByText(CLINICIAN.name).waitFor();
    await openings.getByText('Covering for the client’s clinician today').waitFor();
  });

  it('shows names on the audit screen and refuses an inverted date range', async () => {
    await owner.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Audit log' }).click();
    await owner.getByRole('heading', { name: 'Audit log', level: 1 }).waitFor();
    const table = owner.getByRole('table', { name: 'Audit events' });
    await table
      .getByRole('row')
      .filter({ hasText: `${OWNER.name} (owner)` })
      .first()
      .waitFor();
    await owner.getByLabel('Action').fill('session.cosign');
    await owner.getByRole('button', { name: 'Apply filters' }).click();
    await table
      .getByRole('row')
      .filter({ hasText: 'session.cosign' })
      .filter({ hasText: OWNER.name })
      .first()
      .waitFor();
    const who = await table.getByRole('cell').nth(1).innerText();
    expect(who).not.toMatch(/[0-9a-f]{8}-[0-9a-f]{4}/);

    // The form refuses it…
    await owner.getByLabel('From').fill('2026-03-02T10:00');
    await owner.getByLabel('Until').fill('2026-03-01T10:00');
    await owner.getByRole('button', { name: 'Apply filters' }).click();
    await owner.getByText('“From” must be before “Until”.').first().waitFor();
    expect(new URL(owner.url()).searchParams.get('since')).toBeNull();

    // …and an address that carries one anyway shows the server's refusal.
    await owner.goto(`${routes.audit()}?since=2026-03-02T10%3A00&until=2026-03-01T10%3A00`);
    await owner.getByText('The audit log could not be loaded').waitFor();
    await owner.getByText(/the range is inverted/).waitFor();
    await screenshot(owner, 'audit-inverted-range');
  });
});
