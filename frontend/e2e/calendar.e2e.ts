/**
 * A group practice's calendar in the browser, against its own backend: the practice's time
 * zone labelled and drawn in (the browser is on UTC, the practice in Berlin), two clinicians
 * booked at the same time side by side, the clinician filter, a weekly series, and drag to
 * reschedule (a conflicting drop refused and snapped back).
 */
import { request, type APIRequestContext, type Browser, type Locator, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launch, screenshot } from './browser';
import { start, type Running } from './harness';
import { routes } from '../src/routes';

const PASSWORD = 'carevault-demo';
const OWNER = 'owner@demo.carevault.local';
const CLINICIAN = 'clinician@demo.carevault.local';
const OWNER_NAME = 'Dr. Demo Owner';
const CLINICIAN_NAME = 'Demo Clinician';
const ZONE = 'Europe/Berlin'; // UTC+1 in early March 2030
const MONDAY = '2030-03-04';
const tag = Date.now().toString(36).slice(-5);
const ADA = { first_name: 'Ada', last_name: `Lane${tag}` };
const GRACE = { first_name: 'Grace', last_name: `Side${tag}` };
const ALAN = { first_name: 'Alan', last_name: `Series${tag}` };
const KATE = { first_name: 'Kate', last_name: `Block${tag}` };
const name = (client: { first_name: string; last_name: string }) => `${client.first_name} ${client.last_name}`;

let running: Running | undefined;
let browser: Browser;
let page: Page;
let owner: Api;
let clinician: Api;
const requested: string[] = [];

interface Api {
  id: string;
  post(path: string, body: unknown): Promise<{ id: string }>;
  patch(path: string, body: unknown): Promise<void>;
}

async function apiAs(email: string): Promise<Api> {
  const context: APIRequestContext = await request.newContext({ baseURL: running!.baseUrl });
  const login = await context.post('/api/v1/auth/login', { data: { email, password: PASSWORD } });
  expect(login.status()).toBe(200);
  const { csrf_token: csrf, user } = (await login.json()) as { csrf_token: string; user: { id: string } };
  const headers = { 'X-CSRF-Token': csrf };
  return {
    id: user.id,
    async post(path, body) {
      const response = await context.post(path, { data: body, headers });
      expect(response.status(), await response.text()).toBe(201);
      return (await response.json()) as { id: string };
    },
    async patch(path, body) {
      const response = await context.patch(path, { data: body, headers });
      expect(response.status(), await response.text()).toBe(200);
    },
  };
}

/** A time on a day in Berlin before 31 March 2030 (UTC+1), as the instant the API takes. */
const at = (day: string, time: string) => {
  const [year, month, date] = day.split('-').map(Number);
  const [hours, minutes] = time.split(':').map(Number);
  return new Date(Date.UTC(year, month - 1, date, hours - 1, minutes)).toISOString();
};

function card(client: { first_name: string; last_name: string }): Locator {
  return page.getByRole('button', { name: new RegExp(`^Edit appointment: ${name(client)},`) });
}

async function showCalendar(query: Record<string, string>): Promise<void> {
  await page.goto(`${routes.calendar()}?${new URLSearchParams(query).toString()}`);
  await page.getByRole('heading', { name: 'Calendar', level: 1 }).waitFor();
  await page.getByText('Loading appointments…').waitFor({ state: 'hidden' });
}

async function box(locator: Locator) {
  const found = await locator.boundingBox();
  if (!found) throw new Error('not visible');
  return found;
}

describe.skipIf(Boolean(process.env.E2E_BASE_URL))('calendar of a group practice', () => {
  beforeAll(async () => {
    running = await start({ name: 'backend-calendar' });
    owner = await apiAs(OWNER);
    clinician = await apiAs(CLINICIAN);
    await owner.patch('/api/v1/workspace', { time_zone: ZONE });
    const ada = await owner.post('/api/v1/clients', ADA);
    const grace = await owner.post('/api/v1/clients', GRACE);
    await owner.post('/api/v1/clients', ALAN);
    const kate = await owner.post('/api/v1/clients', KATE);
    // Two clinicians, two clients, the same hour (before issue 24: a 409).
    await owner.post('/api/v1/appointments', {
      client_id: ada.id,
      starts_at: at(MONDAY, '09:00'),
      ends_at: at(MONDAY, '09:50'),
    });
    await clinician.post('/api/v1/appointments', {
      client_id: grace.id,
      starts_at: at(MONDAY, '09:00'),
      ends_at: at(MONDAY, '09:50'),
    });
    await owner.post('/api/v1/appointments', {
      client_id: kate.id,
      starts_at: at(MONDAY, '14:00'),
      ends_at: at(MONDAY, '14:50'),
    });

    browser = await launch();
    const context = await browser.newContext({
      baseURL: running.baseUrl,
      viewport: { width: 1400, height: 1000 },
      timezoneId: 'UTC',
      locale: 'en-GB',
    });
    context.setDefaultTimeout(20_000);
    page = await context.newPage();
    page.on('request', (sent) => requested.push(`${sent.method()} ${new URL(sent.url()).pathname}`));
    await page.goto(routes.calendar());
    await page.getByLabel('Email').fill(OWNER);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Calendar', level: 1 }).waitFor();
  });

  afterAll(async () => {
    await browser?.close();
    await running?.stop();
  });

  it("labels the practice's time zone and draws in it, not the browser's", async () => {
    await showCalendar({ date: MONDAY });
    const label = page.getByTestId('calendar-zone');
    await label.getByText('Times in Europe/Berlin (GMT+1), the practice’s time zone').waitFor();
    expect(await label.textContent()).toContain('this computer: UTC');
    // 08:00 UTC is 09:00 in Berlin: drawn at 09:00.
    await card(ADA).waitFor();
    expect(await card(ADA).getAttribute('aria-label')).toContain('09:00–09:50');
    // The names come with the appointments: no client list was asked for to draw the week.
    expect(requested.filter((line) => /\/api\/v1\/clients(\/search)?$/.test(line))).toEqual([]);
    expect(requested).toContain('GET /api/v1/appointments');
  });

  it('shows two clinicians booked at the same time side by side, readable', async () => {
    await showCalendar({ date: MONDAY });
    const cardOf = (client: typeof ADA) => card(client).locator('xpath=..'); // the whole card, with its Note button
    const [ada, grace] = [await box(cardOf(ADA)), await box(cardOf(GRACE))];
    expect(Math.abs(ada.y - grace.y)).toBeLessThan(2); // the same time
    expect(ada.x + ada.width <= grace.x || grace.x + grace.width <= ada.x).toBe(true); // not on top of each other
    expect(Math.min(ada.width, grace.width)).toBeGreaterThan(100); // lanes of a readable width
    expect(await card(ADA).getAttribute('aria-label')).toContain(OWNER_NAME);

    // The day view: a column per clinician, each appointment in its clinician's column.
    await page.getByRole('button', { name: 'Day view' }).click();
    const ownerColumn = page.getByRole('region', { name: new RegExp(`^${OWNER_NAME}, `) });
    const clinicianColumn = page.getByRole('region', { name: new RegExp(`^${CLINICIAN_NAME}, `) });
    await ownerColumn.getByRole('button', { name: new RegExp(`^Edit appointment: ${name(ADA)},`) }).waitFor();
    await clinicianColumn.getByRole('button', { name: new RegExp(`^Edit appointment: ${name(GRACE)},`) }).waitFor();
    expect(await ownerColumn.getByRole('button', { name: new RegExp(name(GRACE)) }).count()).toBe(0);
    await screenshot(page, 'calendar-clinicians');
  });

  it('filters to one clinician', async () => {
    await showCalendar({ date: MONDAY });
    await page.getByText('Clinicians: all').click();
    await page.getByLabel('All clinicians').click(); // off: back to your own calendar
    await card(GRACE).waitFor({ state: 'detached' });
    await card(ADA).waitFor();
    // Controlled by the address: clicked, then the calendar follows.
    await page.getByLabel(CLINICIAN_NAME).click();
    await card(GRACE).waitFor();
    await page.getByLabel(`${OWNER_NAME} (you)`).click();
    await card(ADA).waitFor({ state: 'detached' });
    expect(new URL(page.url()).searchParams.get('who')).toBe(clinician.id);
  });

  it('books a weekly series of 4: one appointment in each of 4 weeks', async () => {
    await showCalendar({ date: MONDAY, who: owner.id });
    await page.getByRole('button', { name: 'New appointment' }).click();
    const dialog = page.getByRole('dialog', { name: 'New appointment' });
    await dialog.getByLabel('Find by name').fill(ALAN.last_name);
    await dialog.getByLabel('Client', { exact: true }).selectOption({ label: `${ALAN.last_name}, ${ALAN.first_name}` });
    await dialog.getByLabel('Date', { exact: true }).fill('2030-03-19');
    await dialog.getByLabel('Start time').fill('11:00');
    await dialog.getByLabel('Room (optional)').fill('Room 2');
    await dialog.getByLabel('Repeats').selectOption('weekly');
    await dialog.getByLabel('Number of appointments').fill('4');
    await dialog.getByRole('button', { name: 'Book appointments' }).click();
    await dialog.waitFor({ state: 'hidden' });
    for (const week of ['2030-03-18', '2030-03-25', '2030-04-01', '2030-04-08']) {
      await showCalendar({ date: week, who: owner.id });
      await card(ALAN).waitFor();
      expect(await card(ALAN).count()).toBe(1);
      expect(await card(ALAN).getAttribute('aria-label')).toContain('11:00–11:50'); // 11:00 after the change to summer time (31 March) too
    }
    await showCalendar({ date: '2030-04-15', who: owner.id });
    await page.getByRole('button', { name: 'Next week' }).waitFor();
    expect(await card(ALAN).count()).toBe(0);
  });

  it('cancels an occurrence and the following ones, after a confirmation', async () => {
    await showCalendar({ date: '2030-04-01', who: owner.id });
    await card(ALAN).click();
    const dialog = page.getByRole('dialog', { name: 'Edit appointment' });
    await dialog.getByRole('button', { name: 'Cancel this and following' }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Cancel this and the following appointments?' });
    await confirm.getByRole('button', { name: 'Cancel this and following' }).click();
    await dialog.waitFor({ state: 'hidden' });
    const statusIn = async (week: string) => {
      await showCalendar({ date: week, who: owner.id });
      return (await card(ALAN).getAttribute('aria-label'))?.split(', ').pop();
    };
    expect(await statusIn('2030-03-18')).toBe('scheduled');
    expect(await statusIn('2030-03-25')).toBe('scheduled');
    expect(await statusIn('2030-04-01')).toBe('cancelled');
    expect(await statusIn('2030-04-08')).toBe('cancelled');
  });

  it('reschedules by drag, and refuses a conflicting drop, snapping back', async () => {
    await showCalendar({ date: MONDAY, view: 'day', who: owner.id });
    await card(ADA).waitFor();
    const from = await box(card(ADA));
    // Two hours down (1 px a minute): 09:00 → 11:00.
    await page.mouse.move(from.x + from.width / 2, from.y + 10);
    await page.mouse.down();
    await page.mouse.move(from.x + from.width / 2, from.y + 70, { steps: 5 });
    await page.mouse.move(from.x + from.width / 2, from.y + 130, { steps: 5 });
    await page.mouse.up();
    await expect.poll(async () => card(ADA).getAttribute('aria-label')).toContain('11:00–11:50');
    expect(await page.getByRole('dialog').count()).toBe(0); // a drag is not a click
    await expect.poll(async () => page.locator('.appointment[aria-busy="true"]').count()).toBe(0); // saved

    // Onto Kate's 14:00 with the same clinician: refused, named, and back at 11:00.
    const moved = await box(card(ADA));
    const movedInColumn = moved.y - (await box(page.locator('.day-slots').first())).y;
    await page.mouse.move(moved.x + moved.width / 2, moved.y + 10);
    await page.mouse.down();
    await page.mouse.move(moved.x + moved.width / 2, moved.y + 100, { steps: 5 });
    await page.mouse.move(moved.x + moved.width / 2, moved.y + 190, { steps: 5 });
    await page.mouse.up();
    const refusal = page.getByRole('alert').filter({ hasText: 'The appointment was not moved' });
    await refusal.waitFor();
    await refusal.getByText(`14:00–14:50: ${name(KATE)} — same clinician (${OWNER_NAME})`).waitFor();
    expect(await card(ADA).getAttribute('aria-label')).toContain('11:00–11:50');
    // Drawn at 11:00 again: the same place in its column (the banner moved the column down).
    const column = page.locator('.day-slots').first();
    expect((await box(card(ADA))).y - (await box(column)).y).toBeCloseTo(movedInColumn, 0);
  });

  it("moves an appointment onto another clinician's column", async () => {
    await showCalendar({ date: MONDAY, view: 'day', who: 'all' });
    const target = page.getByRole('region', { name: new RegExp(`^${CLINICIAN_NAME}, `) });
    const from = await box(card(KATE));
    const to = await box(target.locator('.day-slots'));
    await page.mouse.move(from.x + from.width / 2, from.y + 10);
    await page.mouse.down();
    await page.mouse.move(to.x + to.width / 2, from.y + 10, { steps: 8 });
    await page.mouse.up();
    await target
      .getByRole('button', { name: new RegExp(`^Edit appointment: ${name(KATE)},.*14:00–14:50, ${CLINICIAN_NAME}`) })
      .waitFor();
    await expect.poll(async () => page.locator('.appointment[aria-busy="true"]').count()).toBe(0);
  });

  it('keeps four overlapping appointments readable on a phone: the day scrolls sideways', async () => {
    const day = '2030-03-06';
    for (const last of ['One', 'Two', 'Three', 'Four']) {
      const client = await owner.post('/api/v1/clients', { first_name: 'Lane', last_name: `${last}${tag}` });
      await owner.post('/api/v1/appointments', {
        client_id: client.id,
        starts_at: at(day, '10:00'),
        ends_at: at(day, '10:50'),
        allow_overlap: true, // a group session
      });
    }
    const phone = await (
      await browser.newContext({
        baseURL: running!.baseUrl,
        viewport: { width: 360, height: 800 },
        timezoneId: 'UTC',
        locale: 'en-GB',
        storageState: await page.context().storageState(),
      })
    ).newPage();
    await phone.goto(`${routes.calendar()}?${new URLSearchParams({ date: day, who: owner.id }).toString()}`);
    const cards = phone.getByRole('button', { name: /^Edit appointment: Lane / });
    await cards.first().waitFor();
    expect(await cards.count()).toBe(4);
    for (const one of await cards.all()) {
      expect((await box(one.locator('xpath=..'))).width).toBeGreaterThan(100);
    }
    const scroll = phone.locator('.calendar-scroll');
    expect(await scroll.evaluate((el) => el.scrollWidth > el.clientWidth)).toBe(true);
    await screenshot(phone, 'calendar-lanes-phone');
    await phone.context().close();
  });
});
