import { describe, expect, it } from 'vitest';
import { FakeClock } from '../test/fakes';
import { IdleTimer } from './idle';

function setup(idleMinutes = 15) {
  const clock = new FakeClock();
  const events: string[] = [];
  const timer = new IdleTimer({
    idleTimeoutMs: idleMinutes * 60_000,
    clock,
    onWarn: () => events.push(`warn@${(clock.now() - start) / 1000}`),
    onResume: () => events.push(`resume@${(clock.now() - start) / 1000}`),
    onExpire: () => events.push(`expire@${(clock.now() - start) / 1000}`),
  });
  const start = clock.now();
  return { clock, timer, events, start };
}

describe('IdleTimer', () => {
  it('warns a minute before the earliest server-side logoff, then expires', async () => {
    const { clock, events } = setup();
    // 15 min idle, server last-seen granularity 30 s: earliest end at 14:30, warning at 13:30.
    await clock.advance(13 * 60_000 + 29_000);
    expect(events).toEqual([]);
    await clock.advance(1_000);
    expect(events).toEqual(['warn@810']);
    await clock.advance(60_000);
    expect(events).toEqual(['warn@810', 'expire@870']);
  });

  it('contact with the server (any tab) pushes the deadline and hides the warning', async () => {
    const { clock, timer, events, start } = setup();
    await clock.advance(811_000);
    expect(timer.isWarning()).toBe(true);
    timer.contact(clock.now()); // "Stay signed in" called GET /auth/me
    expect(events).toEqual(['warn@810', 'resume@811']);
    expect(timer.deadline()).toBe(start + 811_000 + 870_000);
    await clock.advance(809_000);
    expect(events).toHaveLength(2);
    await clock.advance(1_000);
    expect(events[2]).toBe('warn@1621');
  });

  it('ignores contact older than what it knows', async () => {
    const { clock, timer, start } = setup();
    await clock.advance(1_000);
    timer.contact(start - 5_000);
    expect(timer.deadline()).toBe(start + 870_000);
  });

  it('with a one-minute timeout, warns halfway to the earliest end and expires on time', async () => {
    const { clock, events } = setup(1);
    await clock.advance(14_999);
    expect(events).toEqual([]);
    await clock.advance(1);
    expect(events).toEqual(['warn@15']);
    await clock.advance(15_000);
    expect(events).toEqual(['warn@15', 'expire@30']);
  });

  it('stops', async () => {
    const { clock, timer, events } = setup();
    timer.stop();
    await clock.advance(3_600_000);
    expect(events).toEqual([]);
  });
});

describe('IdleTimer: typing is presence', () => {
  it('activity here (typing offline, no server contact) keeps the warning and the logoff away', async () => {
    const { clock, timer, events } = setup(1); // 1 min: warning at 15 s, earliest end at 30 s
    for (let second = 10; second <= 120; second += 10) {
      await clock.advance(10_000);
      timer.activity(clock.now());
    }
    expect(events).toEqual([]);
    await clock.advance(30_000);
    expect(events).toEqual(['warn@135', 'expire@150']);
  });
});
