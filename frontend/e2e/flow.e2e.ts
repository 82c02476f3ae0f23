/**
 * A clinician's day against the real backend and database: sign in, add a client, book an
 * appointment, write its note (autosave, reload), finalize, amend, meet another tab's save,
 * and, as the owner, find those reads in the audit log.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { matchPath } from 'react-router';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { launch, screenshot } from './browser';
import { paths, routes } from '../src/routes';

const OWNER = { email: 'owner@demo.carevault.local', password: 'carevault-demo' };
// A fresh database (the default) gets plain names; a shared one (E2E_BASE_URL) unique ones.
const suffix = process.env.E2E_BASE_URL ? Date.now().toString(36).slice(-5) : '';
const tag = suffix ? `-${suffix}` : '';
const CLIENT = { first: 'Avery', last: `Testwood${tag}`, email: `avery${tag}@example.org`, phone: '+1 555 010 0142' };
const TOKEN_NAME = `e2e export${tag}`;
const CLIENT_NAME = `${CLIENT.first} ${CLIENT.last}`;
const today = new Date().toISOString().slice(0, 10); // the browser runs in UTC below

let browser: Browser;
let context: BrowserContext;
let page: Page;
let baseUrl: string;
let noteUrl = '';
let secondNoteUrl = '';
// Everything the page asked for, and any Content-Security-Policy violation it reported.
const requestedUrls: string[] = [];
const cspViolations: string[] = [];
// Every create the page sent, with its Idempotency-Key (issue 14: all of them carry one).
const CREATE_PATHS = new Set(['/api/v1/clients', '/api/v1/appointments', '/api/v1/sessions', '/api/v1/auth/tokens']);
const creates: Array<{ path: string; key: string | undefined }> = [];
const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

async function newContext(viewport = { width: 1280, height: 900 }): Promise<BrowserContext> {
  const created = await browser.newContext({ baseURL: baseUrl, viewport, timezoneId: 'UTC', locale: 'en-GB' });
  created.setDefaultTimeout(15_000);
  // Nothing leaves the machine: only the app's own origin is allowed.
  await created.route(/.*/, (route) =>
    route.request().url().startsWith(baseUrl) || route.request().url().startsWith('data:')
      ? route.continue()
      : route.abort(),
  );
  return created;
}

async function signIn(target: Page, credentials = OWNER): Promise<void> {
  await target.getByLabel('Email').fill(credentials.email);
  await target.getByLabel('Password').fill(credentials.password);
  await target.getByRole('button', { name: 'Sign in' }).click();
}

async function savedState(target: Page): Promise<void> {
  await target
    .getByRole('status')
    .filter({ hasText: /^All changes saved/ })
    .waitFor();
}

/** A reloaded tab with no other tab open asks for the password before it can save. */
async function ensureCanWrite(target: Page): Promise<void> {
  const confirm = target.getByRole('button', { name: 'Confirm password' });
  if (await confirm.isVisible()) {
    await confirm.click();
    const dialog = target.getByRole('dialog', { name: 'Confirm your password' });
    await dialog.getByLabel('Password').fill(OWNER.password);
    await dialog.getByRole('button', { name: 'Confirm' }).click();
    await confirm.waitFor({ state: 'detached' });
  }
}

beforeAll(async () => {
  baseUrl = inject('baseUrl');
  browser = await launch();
  context = await newContext();
  page = await context.newPage();
  page.on('request', (request) => {
    requestedUrls.push(request.url());
    const path = new URL(request.url()).pathname;
    if (request.method() === 'POST' && CREATE_PATHS.has(path)) {
      creates.push({ path, key: request.headers()['idempotency-key'] });
    }
  });
  page.on('console', (message) => {
    if (/Content[- ]Security[- ]Policy/i.test(message.text())) cspViolations.push(message.text());
  });
});

afterAll(async () => {
  await browser?.close();
});

describe('the clinician web UI', () => {
  it('refuses a wrong password and rate-limits repeated failures, with clear messages', async () => {
    await page.goto(routes.home());
    await page.getByRole('heading', { name: 'CareVault' }).waitFor();
    await screenshot(page, 'sign-in');
    // On a shared server (E2E_BASE_URL) failures count against real limits: fail only for a
    // made-up address there, and leave the rate limit to fresh databases.
    const shared = Boolean(process.env.E2E_BASE_URL);
    await signIn(page, {
      email: shared ? `nobody${tag}@demo.carevault.local` : OWNER.email,
      password: 'not-the-password',
    });
    await page.getByRole('alert').filter({ hasText: 'Wrong email or password' }).waitFor();
    if (shared) return;

    for (let attempt = 0; attempt < 6; attempt++) {
      await signIn(page, { email: `nobody${tag}@demo.carevault.local`, password: 'wrong-again' });
      await page.getByRole('button', { name: 'Sign in' }).and(page.locator(':enabled')).waitFor();
    }
    await page.getByRole('alert').filter({ hasText: 'Too many sign-in attempts' }).waitFor();
  });

  it('signs in and shows the week', async () => {
    await signIn(page);
    await page.getByRole('heading', { name: 'Calendar', level: 1 }).waitFor();
    await page.getByRole('button', { name: 'Next week' }).waitFor();
    await page
      .getByRole('button', { name: /^Open note for / })
      .first()
      .waitFor();
    await screenshot(page, 'calendar');
  });

  it('adds a client and finds them by exact email and by name', async () => {
    await page.getByRole('link', { name: 'Clients' }).click();
    await page.getByRole('heading', { name: 'Clients', level: 1 }).waitFor();
    await page.getByRole('button', { name: 'New client' }).click();
    const dialog = page.getByRole('dialog', { name: 'New client' });
    await dialog.getByLabel('First name (required)').fill(CLIENT.first);
    await dialog.getByLabel('Last name (required)').fill(CLIENT.last);
    await dialog.getByLabel('Email').fill(CLIENT.email);
    await dialog.getByLabel('Phone', { exact: true }).fill(CLIENT.phone);
    await dialog.getByRole('button', { name: 'Add client' }).click();
    await page.getByRole('heading', { name: CLIENT_NAME, level: 1 }).waitFor();
    await page
      .getByRole('heading', { name: 'No session notes yet' })
      .or(page.getByText('No session notes yet'))
      .first()
      .waitFor();

    await page.getByRole('link', { name: 'Clients' }).first().click();
    await page.getByLabel('Search clients').fill(CLIENT.email);
    await page
      .getByRole('status')
      .filter({ hasText: `1 client matching “${CLIENT.email}”` })
      .waitFor();
    expect(await page.getByRole('row').count()).toBe(2); // the header and the one match
    await page.getByRole('link', { name: CLIENT_NAME }).waitFor();
    await page.getByLabel('Search clients').fill(CLIENT.phone);
    await page
      .getByRole('status')
      .filter({ hasText: `1 client matching “${CLIENT.phone}”` })
      .waitFor();
    await page.getByLabel('Search clients').fill(CLIENT.last.slice(0, 8));
    await page
      .getByRole('status')
      .filter({ hasText: `matching “${CLIENT.last.slice(0, 8)}”` })
      .waitFor();
    await page.getByRole('link', { name: CLIENT_NAME }).waitFor();
    await page.getByLabel('Search clients').fill(`nobody${tag}@example.org`);
    await page.getByText(`No clients match “nobody${tag}@example.org”`).waitFor();
    await page.getByLabel('Search clients').fill('');
    await page.getByRole('link', { name: CLIENT_NAME }).waitFor();
    await screenshot(page, 'clients');
    // Search terms are PHI: they went in request bodies, never into any URL.
    const leaked = [...requestedUrls, page.url()].filter((url) =>
      /avery|0142|testwood|nobody/i.test(decodeURIComponent(url)),
    );
    expect(leaked).toEqual([]);
  });

  it('adds a client once when the answer to the create is lost: the retry sends the same key', async () => {
    const lost = { first: 'Blake', last: `Losswood${tag}` };
    const attempts: Array<{ key: string | null; replayed: string | undefined }> = [];
    const clientsUrl = `${baseUrl}/api/v1/clients`;
    await page.route(clientsUrl, async (route) => {
      if (route.request().method() !== 'POST') return route.fallback();
      const key = await route.request().headerValue('idempotency-key');
      const response = await route.fetch(); // the server creates the client…
      attempts.push({ key, replayed: response.headers()['idempotent-replayed'] });
      // …but the first answer never reaches the page, as when a connection drops.
      if (attempts.length === 1) return route.abort('connectionreset');
      return route.fulfill({ response });
    });
    try {
      await page.getByRole('button', { name: 'New client' }).click();
      const dialog = page.getByRole('dialog', { name: 'New client' });
      await dialog.getByLabel('First name (required)').fill(lost.first);
      await dialog.getByLabel('Last name (required)').fill(lost.last);
      await dialog.getByRole('button', { name: 'Add client' }).click();
      await page.getByRole('heading', { name: `${lost.first} ${lost.last}`, level: 1 }).waitFor();
    } finally {
      await page.unroute(clientsUrl);
    }
    expect(attempts).toHaveLength(2);
    expect(attempts[0].key).toMatch(UUID_V4);
    expect(attempts[1]).toEqual({ key: attempts[0].key, replayed: 'true' });

    await page.getByRole('link', { name: 'Clients' }).first().click();
    await page.getByLabel('Search clients').fill(lost.last);
    await page
      .getByRole('status')
      .filter({ hasText: `1 client matching “${lost.last}”` })
      .waitFor();
    await page.getByLabel('Search clients').fill('');
  });

  it('books an appointment, and refuses an overlapping one with the conflict', async () => {
    await page.getByRole('link', { name: 'Calendar' }).click();
    await page.getByRole('button', { name: 'New appointment' }).click();
    let dialog = page.getByRole('dialog', { name: 'New appointment' });
    await dialog.getByLabel('Client').selectOption({ label: `${CLIENT.last}, ${CLIENT.first}` });
    await dialog.getByLabel('Date', { exact: true }).fill(today);
    await dialog.getByLabel('Start time').fill('17:00');
    await dialog.getByLabel('Duration (minutes)').selectOption('50');
    await dialog.getByLabel('Location').fill('Room 3');
    await dialog.getByRole('button', { name: 'Book appointment' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await page.getByRole('button', { name: new RegExp(`^Open note for ${CLIENT_NAME}`) }).waitFor();

    await page.getByRole('button', { name: 'New appointment' }).click();
    dialog = page.getByRole('dialog', { name: 'New appointment' });
    await dialog.getByLabel('Client').selectOption({ label: `${CLIENT.last}, ${CLIENT.first}` });
    await dialog.getByLabel('Date', { exact: true }).fill(today);
    await dialog.getByLabel('Start time').fill('17:30');
    await dialog.getByRole('button', { name: 'Book appointment' }).click();
    await dialog.getByRole('alert').filter({ hasText: 'This time overlaps another appointment' }).waitFor();
    await dialog.getByText(`17:00–17:50: ${CLIENT_NAME}`).waitFor();
    await dialog.getByRole('button', { name: 'Close', exact: true }).first().click();
    await dialog.waitFor({ state: 'hidden' });
  });

  it('opens the appointment’s note in one click, autosaves, and keeps the text across a reload', async () => {
    await page.getByRole('button', { name: new RegExp(`^Open note for ${CLIENT_NAME}`) }).click();
    await page.getByRole('heading', { name: `Session note: ${CLIENT_NAME}` }).waitFor();
    noteUrl = page.url();
    expect(matchPath(paths.note, new URL(noteUrl).pathname)?.params.noteId).toMatch(/^[0-9a-f-]{36}$/);

    const subjective = 'Reports sleeping through the night for the first time in weeks.';
    await page.getByLabel('Subjective').fill(subjective);
    await page.getByText(`${subjective.length} / 5,000 characters`).waitFor();
    await savedState(page);
    await page.getByLabel('Objective').fill('Calm, engaged, good eye contact.');
    await page.getByLabel('Objective').press('Control+s');
    await savedState(page);

    await page.reload();
    await page.getByRole('heading', { name: `Session note: ${CLIENT_NAME}` }).waitFor();
    expect(await page.getByLabel('Subjective').inputValue()).toBe(subjective);
    expect(await page.getByLabel('Objective').inputValue()).toBe('Calm, engaged, good eye contact.');

    // With no other tab to hand it the CSRF token, the reloaded tab must confirm the password
    // before saving: what is typed meanwhile stays, and is saved once it is confirmed.
    const mustConfirm = await page.getByRole('button', { name: 'Confirm password' }).isVisible();
    await page.getByLabel('Assessment').fill('Sleep hygiene plan is working.');
    if (mustConfirm) {
      await page.getByRole('alert').filter({ hasText: 'confirm your password first' }).waitFor();
      await ensureCanWrite(page);
    }
    await savedState(page);
    expect(await page.getByLabel('Assessment').inputValue()).toBe('Sleep hygiene plan is working.');
  });

  it('finalizes, amends, and shows the version history', async () => {
    await screenshot(page, 'note-editor');
    await savedState(page);
    await page.getByRole('button', { name: 'Finalize note' }).click();
    await page
      .getByRole('dialog', { name: 'Finalize this note?' })
      .getByRole('button', { name: 'Finalize', exact: true })
      .click();
    await page.getByRole('button', { name: 'Amend note' }).waitFor();
    expect(await page.getByLabel('Subjective').getAttribute('readonly')).not.toBeNull();

    await page.getByRole('button', { name: 'Amend note' }).click();
    await page.getByLabel('Plan').fill('Review in two weeks; keep the sleep diary.');
    await page.getByLabel('Reason for the amendment (required)').fill('Review interval agreed in the session.');
    await page.getByRole('button', { name: 'Save amendment' }).click();
    await page.getByRole('button', { name: 'Amend note' }).waitFor();
    // The signature and the addendum with its reason (issue 24).
    const signature = page.getByRole('region', { name: 'Signature' });
    await signature.getByText(/^Signed by you on /).waitFor();
    await signature.getByText('Review interval agreed in the session.').waitFor();
    const history = page.getByRole('list', { name: 'Earlier versions' });
    await history
      .getByText(/^Version \d+, replaced .* by you$/)
      .first()
      .waitFor();
    await history
      .getByText(/^Version \d+, replaced/)
      .first()
      .click();
    await history.getByText('Sleep hygiene plan is working.').waitFor();
    await screenshot(page, 'note-history');
  });

  it('shows the client page with the note in its timeline', async () => {
    await page.getByRole('navigation', { name: 'Breadcrumb' }).getByRole('link', { name: CLIENT_NAME }).click();
    await page.getByRole('heading', { name: CLIENT_NAME, level: 1 }).waitFor();
    await page
      .getByRole('link', { name: /^Note of / })
      .first()
      .waitFor();
    await page.getByText('Reports sleeping through the night').waitFor();
    await screenshot(page, 'client');
  });

  it('shows a banner, and overwrites nothing, when another tab saved the same note first', async () => {
    await page.getByRole('button', { name: 'New note' }).click();
    await page.getByRole('heading', { name: `Session note: ${CLIENT_NAME}` }).waitFor();
    // The note exists from its first keystroke on (issue 23), then the address is its own.
    await page.getByLabel('Subjective').fill('A second session.');
    await savedState(page);
    await page.waitForURL(/\/notes\/[0-9a-f-]{36}$/);
    secondNoteUrl = page.url();
    const other = await context.newPage();
    await other.goto(secondNoteUrl);
    await other.getByRole('heading', { name: `Session note: ${CLIENT_NAME}` }).waitFor();
    expect(await other.getByRole('button', { name: 'Confirm password' }).count()).toBe(0); // the token came from the first tab

    await page.getByLabel('Plan').fill('Written in the first tab.');
    await savedState(page);
    await other.getByLabel('Plan').fill('Written in the second tab.');
    await other
      .getByRole('alert')
      .filter({ hasText: 'Another tab or device saved a newer version of this note' })
      .waitFor();
    await other.getByRole('status').filter({ hasText: 'Not saved — a newer version exists' }).waitFor();
    await screenshot(other, 'note-conflict');

    await other.getByRole('button', { name: 'Load newer version' }).click();
    await savedState(other);
    expect(await other.getByLabel('Plan', { exact: true }).inputValue()).toBe('Written in the first tab.');
    expect(await other.getByLabel('Your plan').inputValue()).toBe('Written in the second tab.');
    await other.close();
  });

  it('lets the owner find the reads of that note in the audit log', async () => {
    const noteId = noteUrl.split('/').pop()!;
    await page.getByRole('link', { name: 'Audit log' }).click();
    await page.getByRole('heading', { name: 'Audit log', level: 1 }).waitFor();
    await page.getByLabel('Resource id').fill(noteId);
    await page.getByRole('button', { name: 'Apply filters' }).click();
    const reads = page.getByRole('row').filter({ hasText: 'session.read' });
    await reads.first().waitFor();
    expect(await reads.count()).toBeGreaterThanOrEqual(2); // opened, then reloaded
    await page.getByRole('row').filter({ hasText: 'session.finalize' }).first().waitFor();
    await page.getByLabel('Action').fill('session.read');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await page.getByRole('row').filter({ hasText: 'session.finalize' }).waitFor({ state: 'detached' });
    await screenshot(page, 'audit-log');
  });

  it('shows the team, creates an API token once and revokes it, and shows the key status', async () => {
    await page.getByRole('link', { name: 'Team' }).click();
    await page.getByRole('cell', { name: OWNER.email }).waitFor();
    await screenshot(page, 'team');

    await page.getByRole('link', { name: 'API tokens' }).click();
    await page.getByLabel('Token name').fill(TOKEN_NAME);
    await page.getByRole('button', { name: 'Create token' }).click();
    // More than five minutes after signing in, the password is asked for again first.
    const confirm = page.getByRole('dialog', { name: 'Confirm it’s you' });
    await page.getByLabel('New token').or(confirm).first().waitFor();
    if (await confirm.isVisible()) {
      await confirm.getByLabel('Your password').fill(OWNER.password);
      await confirm.getByRole('button', { name: 'Confirm and continue' }).click();
    }
    const token = await page.getByLabel('New token').inputValue();
    expect(token.length).toBeGreaterThan(20);
    await page.getByRole('button', { name: 'I have stored it' }).click();
    expect(await page.getByLabel('New token').count()).toBe(0);
    await page.getByRole('button', { name: `Revoke ${TOKEN_NAME}` }).click();
    await page
      .getByRole('alertdialog', { name: 'Revoke this token?' })
      .getByRole('button', { name: 'Revoke token' })
      .click();
    await page
      .getByRole('row')
      .filter({ hasText: TOKEN_NAME })
      .getByText(/^Revoked/)
      .waitFor();
    await screenshot(page, 'api-tokens');

    await page.getByRole('link', { name: 'Key status' }).click();
    await page.getByText('Active key version').waitFor();
    await page.getByText('pgcrypto available').waitFor();
    await screenshot(page, 'key-status');
    // Every screen so far ran under the app's Content-Security-Policy without a violation.
    if (process.env.E2E_UI !== 'preview') {
      // (vite preview sends no policy; the backend serving the built UI does)
      const shell = await page.request.get('/');
      expect(shell.headers()['content-security-policy']).toContain("script-src 'self'");
    }
    expect(cspViolations).toEqual([]);
  });

  it('sent a fresh Idempotency-Key with every create, one per action', () => {
    expect(new Set(creates.map((create) => create.path))).toEqual(CREATE_PATHS);
    for (const create of creates) expect(create.key, create.path).toMatch(UUID_V4);
    // A key belongs to one action: only its retries repeat it, never another create.
    const pathOfKey = new Map<string, string>();
    for (const { path, key } of creates) {
      expect(pathOfKey.get(key!) ?? path).toBe(path);
      pathOfKey.set(key!, path);
    }
    const bookings = creates.filter((create) => create.path === '/api/v1/appointments');
    expect(bookings.length).toBeGreaterThanOrEqual(2); // booked, then refused as overlapping
    expect(new Set(bookings.map((booking) => booking.key)).size).toBe(bookings.length);
  });

  it('signs out with a clear message', async () => {
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByText('You have signed out').waitFor();
    await page.goto(noteUrl);
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
  });

  it('works on a phone-sized screen: day view and a menu', async () => {
    const phone = await newContext({ width: 390, height: 844 });
    const small = await phone.newPage();
    await small.goto(routes.calendar());
    await signIn(small);
    await small.getByRole('button', { name: 'Next day' }).waitFor();
    await small
      .getByRole('button', { name: /^Open note for / })
      .first()
      .or(small.getByText(/^No appointments on this day/))
      .waitFor();
    expect(
      await small
        .getByRole('region')
        .filter({ has: small.getByRole('heading', { level: 2 }) })
        .count(),
    ).toBeGreaterThan(0);
    await screenshot(small, 'calendar-phone', { fullPage: false });
    await small.getByRole('button', { name: 'Menu' }).click();
    await small.getByRole('link', { name: 'Clients' }).click();
    await small.getByRole('heading', { name: 'Clients', level: 1 }).waitFor();
    await small.getByLabel('Search clients').fill(CLIENT.email);
    await small.getByRole('link', { name: CLIENT_NAME }).click();
    await small
      .getByRole('link', { name: /^Note of / })
      .first()
      .click();
    await small.getByLabel('Subjective').waitFor();
    await screenshot(small, 'note-editor-phone', { fullPage: false });
    await phone.close();
  });
});
