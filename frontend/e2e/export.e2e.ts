/**
 * "Export record" on the client page (issue 26), against the real backend: a new client's
 * record downloads as a PDF and as a FHIR Bundle, named by the client's id, never the name.
 */
import { readFileSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { launch, screenshot } from './browser';
import { routes } from '../src/routes';

const OWNER = { email: 'owner@demo.carevault.local', password: 'carevault-demo' };
const FIRST = 'Exporta';
const LAST = `Recordson${Date.now() % 100_000}`;

let browser: Browser;
let page: Page;

beforeAll(async () => {
  const baseUrl = inject('baseUrl');
  browser = await launch();
  const context = await browser.newContext({
    baseURL: baseUrl,
    viewport: { width: 1280, height: 900 },
    timezoneId: 'UTC',
    acceptDownloads: true,
  });
  context.setDefaultTimeout(15_000);
  page = await context.newPage();
  await page.goto(routes.home());
  await page.getByLabel('Email').fill(OWNER.email);
  await page.getByLabel('Password').fill(OWNER.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('navigation', { name: 'Main' }).waitFor();
});

afterAll(async () => {
  await browser?.close();
});

async function exportAs(format: 'PDF' | 'FHIR JSON'): Promise<{ name: string; body: Buffer }> {
  await page.getByRole('button', { name: 'Export record' }).click();
  const dialog = page.getByRole('dialog', { name: 'Export record' });
  await dialog.getByRole('radio', { name: new RegExp(`^${format}`) }).check();
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    dialog.getByRole('button', { name: 'Download' }).click(),
  ]);
  await dialog.waitFor({ state: 'hidden' });
  return { name: download.suggestedFilename(), body: readFileSync(await download.path()) };
}

describe('exporting a client record', () => {
  it('downloads the record as a PDF and as FHIR JSON, named by id', async () => {
    await page.getByRole('link', { name: 'Clients' }).first().click();
    await page.getByRole('button', { name: 'New client' }).click();
    const form = page.getByRole('dialog', { name: 'New client' });
    await form.getByLabel('First name (required)').fill(FIRST);
    await form.getByLabel('Last name (required)').fill(LAST);
    await form.getByRole('button', { name: 'Add client' }).click();
    await page.getByRole('heading', { name: `${FIRST} ${LAST}`, level: 1 }).waitFor();
    const clientId = page.url().split('/').filter(Boolean).pop() ?? '';

    await page.getByRole('button', { name: 'Export record' }).click();
    await screenshot(page, 'export-record');
    await page.getByRole('dialog', { name: 'Export record' }).getByRole('button', { name: 'Cancel' }).click();

    const pdf = await exportAs('PDF');
    expect(pdf.name).toMatch(new RegExp(`^record-${clientId}-\\d{4}-\\d{2}-\\d{2}\\.pdf$`));
    expect(pdf.name).not.toContain(LAST);
    expect(pdf.body.subarray(0, 5).toString()).toBe('%PDF-');

    const fhir = await exportAs('FHIR JSON');
    expect(fhir.name).toMatch(/\.json$/);
    const bundle = JSON.parse(fhir.body.toString()) as {
      resourceType: string;
      entry: Array<{ resource: { id: string } }>;
    };
    expect(bundle.resourceType).toBe('Bundle');
    expect(bundle.entry[0].resource.id).toBe(clientId);
  });
});
