/**
 * Issue 23: typed text is never lost. Each test reproduces a loss the editor once had:
 * navigating away while offline, an automatic logoff while typing offline, and leaving an
 * amendment. Then: "New note" creates nothing until the first keystroke, archive and cancel
 * ask first, and no typed text reaches the browser's storage in plain.
 */
import { randomUUID } from 'node:crypto';
import type { APIRequestContext, Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { launch } from './browser';
import { start, type Running } from './harness';
import { routes } from '../src/routes';

const CLINICIAN = { email: 'clinician@demo.carevault.local', password: 'carevault-demo' };
const today = new Date().toISOString().slice(0, 10); // the browser runs in UTC below

let browser: Browser;

async function newContext(baseUrl: string): Promise<BrowserContext> {
  const context = await browser.newContext({ baseURL: baseUrl, timezoneId: 'UTC', locale: 'en-GB' });
  context.setDefaultTimeout(20_000);
  await context.route(/.*/, (route) => (route.request().url().startsWith(baseUrl) ? route.continue() : route.abort()));
  return context;
}

/** The API as the signed-in clinician, on the context's cookie (the page shares it). */
class Api {
  private constructor(
    private readonly request: APIRequestContext,
    private readonly csrf: string,
  ) {}

  static async signIn(context: BrowserContext): Promise<Api> {
    const response = await context.request.post('/api/v1/auth/login', { data: CLINICIAN });
    expect(response.status()).toBe(200);
    const body = (await response.json()) as { csrf_token: string };
    return new Api(context.request, body.csrf_token);
  }

  async send<T>(method: string, path: string, data?: unknown): Promise<T> {
    const response = await this.request.fetch(path, {
      method,
      data,
      headers: { 'X-CSRF-Token': this.csrf, 'Idempotency-Key': randomUUID() },
    });
    if (!response.ok()) throw new Error(`${method} ${path}: ${response.status()} ${await response.text()}`);
    return (await response.json()) as T;
  }

  client(last: string): Promise<{ id: string }> {
    return this.send('POST', '/api/v1/clients', { first_name: 'Robin', last_name: last });
  }

  note(clientId: string, text: Record<string, string> = {}): Promise<{ id: string; version: number }> {
    return this.send('POST', '/api/v1/sessions', {
      client_id: clientId,
      session_date: today,
      duration_minutes: 50,
      ...text,
    });
  }

  async notesOf(clientId: string): Promise<Array<{ id: string; objective: string | null; subjective: string | null }>> {
    const page = await this.send<{ items: Array<{ id: string; objective: string | null; subjective: string | null }> }>(
      'GET',
      `/api/v1/sessions?client_id=${clientId}`,
    );
    return page.items;
  }

  readNote(
    noteId: string,
  ): Promise<{ objective: string | null; subjective: string | null; assessment: string | null; version: number }> {
    return this.send('GET', `/api/v1/sessions/${noteId}`);
  }
}

async function savedState(page: Page): Promise<void> {
  await page
    .getByRole('status')
    .filter({ hasText: /^All changes saved/ })
    .waitFor();
}

/** Everything the page keeps in localStorage, sessionStorage and IndexedDB, as text. */
async function browserStorage(page: Page): Promise<string> {
  return page.evaluate(async () => {
    const parts: string[] = [];
    for (const storage of [localStorage, sessionStorage]) {
      for (let i = 0; i < storage.length; i++) {
        const key = storage.key(i)!;
        parts.push(`${key}=${storage.getItem(key)}`);
      }
    }
    for (const info of await indexedDB.databases()) {
      if (!info.name) continue;
      const db = await new Promise<IDBDatabase>((resolve, reject) => {
        const request = indexedDB.open(info.name!);
        request.onsuccess = () => resolve(request.result);
        request.onerror = () => reject(new Error(String(request.error)));
      });
      for (const store of Array.from(db.objectStoreNames)) {
        const values = await new Promise<unknown[]>((resolve, reject) => {
          const request = db.transaction(store).objectStore(store).getAll();
          request.onsuccess = () => resolve(request.result);
          request.onerror = () => reject(new Error(String(request.error)));
        });
        parts.push(`${info.name}/${store}=${JSON.stringify(values)}`);
      }
      db.close();
    }
    return parts.join('\n');
  });
}

beforeAll(async () => {
  browser = await launch();
});

afterAll(async () => {
  await browser?.close();
});

describe('text typed into a note is never lost', () => {
  let context: BrowserContext;
  let page: Page;
  let api: Api;
  let clientId: string;

  beforeAll(async () => {
    context = await newContext(inject('baseUrl'));
    api = await Api.signIn(context);
    clientId = (await api.client(`Keeper-${Date.now().toString(36)}`)).id;
    page = await context.newPage();
  });

  afterAll(async () => {
    await context?.close();
  });

  afterEach(async () => {
    await context.setOffline(false); // a failed test leaves the next one online
  });

  it('loss 1: offline, a click on "Calendar" asks first, and the text is saved once online', async () => {
    const note = await api.note(clientId, { subjective: 'Arrived on time.' });
    await page.goto(routes.note(note.id));
    const objective = page.getByLabel('Objective');
    await objective.waitFor();

    await context.setOffline(true);
    await objective.fill('Offline observation: restless, fidgeting.');
    await page.getByText('Your text is kept here').waitFor();
    const stored = await browserStorage(page);
    expect(stored).not.toContain('Offline observation');
    expect(stored).not.toContain('fidgeting');

    await page.getByRole('link', { name: 'Calendar', exact: true }).first().click();
    const leave = page.getByRole('alertdialog', { name: 'Leave without saving?' });
    await leave.waitFor();
    await leave.getByRole('button', { name: 'Stay on this note' }).click();
    expect(await objective.inputValue()).toBe('Offline observation: restless, fidgeting.');

    await context.setOffline(false);
    await page.getByRole('button', { name: 'Retry now' }).click();
    await savedState(page);
    expect((await api.readNote(note.id)).objective).toBe('Offline observation: restless, fidgeting.');
    expect(await browserStorage(page)).not.toMatch(/carevault\.draft/);

    await page.getByRole('link', { name: 'Calendar', exact: true }).first().click();
    await page.getByRole('heading', { name: 'Calendar', level: 1 }).waitFor();
    await page.goto(routes.note(note.id));
    expect(await page.getByLabel('Objective').inputValue()).toBe('Offline observation: restless, fidgeting.');
  });

  it('loss 1, leaving anyway: the text is kept encrypted on the device and offered back', async () => {
    const note = await api.note(clientId);
    await page.goto(routes.note(note.id));
    await page.getByLabel('Objective').waitFor();
    await context.setOffline(true);
    await page.getByLabel('Objective').fill('Kept while offline: tearful when discussing work.');
    await page.getByText('Your text is kept here').waitFor();
    // Closing the tab asks first (the browser's own question), and staying keeps the text.
    const asked = new Promise<string>((resolve) =>
      page.once('dialog', (dialog) => {
        resolve(dialog.type());
        void dialog.dismiss();
      }),
    );
    await page.close({ runBeforeUnload: true });
    expect(await asked).toBe('beforeunload');
    expect(page.isClosed()).toBe(false);

    await page.getByRole('link', { name: 'Calendar', exact: true }).first().click();
    const leave = page.getByRole('alertdialog', { name: 'Leave without saving?' });
    await leave.getByRole('button', { name: /^Leave/ }).click();
    await page.getByRole('heading', { name: 'Calendar', level: 1 }).waitFor();
    const stored = await browserStorage(page);
    expect(stored).toMatch(/carevault\.draft/); // something is kept…
    expect(stored).not.toContain('tearful'); // …but not the text itself

    await context.setOffline(false);
    await page.goto(routes.note(note.id));
    const offer = page.getByRole('region', { name: 'Unsaved text kept on this device' });
    await offer.waitFor();
    await offer.getByRole('button', { name: 'Restore my text' }).click();
    await savedState(page);
    expect((await api.readNote(note.id)).objective).toBe('Kept while offline: tearful when discussing work.');
    expect(await browserStorage(page)).not.toMatch(/carevault\.draft/); // gone once saved
  });

  it('loss 3: an amendment is not discarded by a click on "Clients"', async () => {
    const note = await api.note(clientId, { subjective: 'Original text.' });
    // Signing attests the current signature statement (issue 24).
    const { signature } = await api.send<{ signature: { version: number } }>('GET', '/api/v1/sessions/attestations');
    await api.send('POST', `/api/v1/sessions/${note.id}/finalize`, {
      version: note.version,
      attestation_version: signature.version,
    });
    await page.goto(routes.note(note.id));
    await page.getByRole('button', { name: 'Amend note' }).click();
    await page.getByLabel('Plan').fill('Amended plan: refer to sleep clinic.');

    await page.getByRole('link', { name: 'Clients', exact: true }).first().click();
    const leave = page.getByRole('alertdialog', { name: 'Leave without saving?' });
    await leave.waitFor();
    await leave.getByRole('button', { name: 'Stay on this note' }).click();
    await leave.waitFor({ state: 'hidden' });
    expect(await page.getByLabel('Plan').inputValue()).toBe('Amended plan: refer to sleep clinic.');
    await page.getByLabel('Reason for the amendment (required)').fill('Referral agreed after the session.');
    await page.getByRole('button', { name: 'Save amendment' }).click();
    await page.getByRole('button', { name: 'Amend note' }).waitFor();
    await page.getByRole('link', { name: 'Clients', exact: true }).first().click();
    await page.getByRole('heading', { name: 'Clients', level: 1 }).waitFor();
  });

  it('the 12-hour limit: text typed offline in its last minutes stays, and is saved after the password', async () => {
    // A browser of its own: its page clock jumps ahead, which no other tab's should see.
    const own = await newContext(inject('baseUrl'));
    const ownApi = await Api.signIn(own);
    const note = await ownApi.note(clientId);
    const tab = await own.newPage();
    await tab.clock.install(); // the page's own clock, moved forward below; the server's is real
    await tab.goto(routes.note(note.id));
    const assessment = tab.getByLabel('Assessment');
    await assessment.waitFor();
    await own.setOffline(true);
    // Typing now and then (so no idle logoff) for 12 hours, offline the whole time.
    let typed = '';
    for (let step = 0; step < 73; step++) {
      typed += '.';
      await assessment.press('End');
      await assessment.pressSequentially('.');
      await tab.clock.fastForward('10:00');
      if (await tab.getByRole('dialog', { name: 'Sign in again to save your work' }).isVisible()) break;
    }
    const dialog = tab.getByRole('dialog', { name: 'Sign in again to save your work' });
    await dialog.getByText('Your session reached its 12-hour limit.').waitFor();
    expect(await tab.getByRole('button', { name: 'Sign in', exact: true }).count()).toBe(0); // not the sign-in page
    expect(await assessment.inputValue()).toBe(typed);

    await own.setOffline(false);
    await dialog.getByLabel('Password').fill(CLINICIAN.password);
    await dialog.getByRole('button', { name: 'Sign in and save' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await savedState(tab);
    expect((await (await Api.signIn(own)).readNote(note.id)).assessment).toBe(typed);
    await own.close();
  });

  it('"New note" creates nothing on the server until the first keystroke', async () => {
    const fresh = (await api.client(`Lazy-${Date.now().toString(36)}`)).id;
    await page.goto(routes.client(fresh));
    await page.getByRole('button', { name: 'New note' }).click();
    await page.getByLabel('Subjective').waitFor();
    await page.getByRole('link', { name: 'Clients', exact: true }).first().click();
    await page.getByRole('heading', { name: 'Clients', level: 1 }).waitFor();
    await page.goto(routes.client(fresh));
    await page.getByRole('button', { name: 'New note' }).click();
    await page.getByLabel('Subjective').waitFor();
    expect(await api.notesOf(fresh)).toHaveLength(0);

    await page.getByLabel('Subjective').fill('First words of a new note.');
    await savedState(page);
    await page.waitForURL(/\/notes\/[0-9a-f-]{36}$/);
    await page.getByLabel('Objective').fill('More words after the note exists.');
    await savedState(page);
    const notes = await api.notesOf(fresh);
    expect(notes).toHaveLength(1);
    expect(notes[0].subjective).toBe('First words of a new note.');
    expect(notes[0].objective).toBe('More words after the note exists.');
  });

  it('archiving a client and cancelling an appointment ask first', async () => {
    await page.goto(routes.client(clientId));
    await page.getByRole('button', { name: 'Archive client' }).click();
    const archive = page.getByRole('alertdialog', { name: 'Archive this client?' });
    await archive.getByRole('button', { name: 'Keep the client' }).click();
    await page.getByRole('button', { name: 'Archive client' }).waitFor();
    const client = await api.send<{ archived_at: string | null }>('GET', `/api/v1/clients/${clientId}`);
    expect(client.archived_at).toBeNull();

    const startsAt = new Date(Date.now() + 2 * 86_400_000);
    startsAt.setUTCHours(10, 0, 0, 0);
    const appointment = await api.send<{ id: string }>('POST', '/api/v1/appointments', {
      client_id: clientId,
      starts_at: startsAt.toISOString(),
      ends_at: new Date(startsAt.getTime() + 50 * 60_000).toISOString(),
    });
    await page.goto(routes.calendar(startsAt.toISOString().slice(0, 10)));
    await page
      .getByRole('button', { name: /^Edit appointment: .*Keeper/ })
      .first()
      .click();
    await page.getByRole('button', { name: 'Cancel appointment' }).click();
    const cancel = page.getByRole('alertdialog', { name: 'Cancel this appointment?' });
    await cancel.getByRole('button', { name: 'Keep the appointment' }).click();
    const kept = await api.send<{ status: string }>('GET', `/api/v1/appointments/${appointment.id}`);
    expect(kept.status).toBe('scheduled');
    await page.getByRole('button', { name: 'Cancel appointment' }).click();
    await cancel.getByRole('button', { name: 'Cancel appointment' }).click();
    await cancel.waitFor({ state: 'hidden' });
    await expect
      .poll(async () => (await api.send<{ status: string }>('GET', `/api/v1/appointments/${appointment.id}`)).status)
      .toBe('cancelled');
  });
});

describe.skipIf(Boolean(process.env.E2E_BASE_URL))('automatic logoff never takes typed text', () => {
  let running: Running | undefined;
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    running = await start({ env: { CAREVAULT_SESSION_IDLE_MINUTES: '1' }, name: 'backend-unsaved-idle' });
    context = await newContext(running.baseUrl);
    page = await context.newPage();
  });

  afterAll(async () => {
    await context?.close();
    await running?.stop();
  });

  it('loss 2: typing offline past the idle time keeps the text, then asks for the password in place', async () => {
    const api = await Api.signIn(context);
    const clientId = (await api.client('Offline')).id;
    const note = await api.note(clientId);
    await page.goto(routes.note(note.id));
    const subjective = page.getByLabel('Subjective');
    await subjective.waitFor();
    // A second tab left on the calendar: its own idle timer must hear of the typing too.
    const other = await context.newPage();
    await other.goto(routes.calendar());
    await other.getByRole('heading', { name: 'Calendar', level: 1 }).waitFor();
    const lock = page.getByRole('dialog', { name: 'Sign in again to save your work' });

    await context.setOffline(true);
    // A sentence every 10 s for 80 s: past the client's warning (15 s), its logoff (30 s)
    // and the server's idle limit (60 s), none of which may take the text.
    let typed = '';
    for (let sentence = 1; sentence <= 8; sentence++) {
      typed += `Sentence ${sentence}. `;
      await subjective.pressSequentially(`Sentence ${sentence}. `, { delay: 5 });
      await page.waitForTimeout(10_000);
      expect(await page.getByRole('button', { name: 'Sign in' }).count()).toBe(0);
      expect(await lock.isVisible()).toBe(false);
      expect(await other.getByRole('button', { name: 'Sign in', exact: true }).count()).toBe(0);
      expect(await subjective.inputValue()).toBe(typed);
    }
    expect(await page.getByText('period of inactivity').count()).toBe(0);

    await context.setOffline(false);
    // The server ended the session meanwhile: the next request of either tab learns it
    // ("Retry now" makes one here, unless the other tab's came first), and the password is
    // asked for over the editor.
    const retry = page.getByRole('button', { name: 'Retry now' });
    if (await retry.isVisible()) await retry.click({ timeout: 5_000 }).catch(() => undefined);
    const dialog = lock;
    await dialog.waitFor();
    await dialog.getByLabel('Password').fill(CLINICIAN.password);
    await dialog.getByRole('button', { name: 'Sign in and save' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await savedState(page);
    expect(await subjective.inputValue()).toBe(typed);
    const fresh = await Api.signIn(context);
    expect((await fresh.readNote(note.id)).subjective).toBe(typed);
  });
});
