/**
 * Automatic logoff, seen from the browser. The server ends a login session that has had no
 * request for `idleTimeoutMs`; it records "last seen" at most every `serverGranularityMs`, so
 * after an answer at time t the session may end as early as t - granularity + timeout. This
 * timer warns `warnBeforeMs` before that earliest end and signs out at it, so the UI never
 * shows data from a session the server has already closed.
 */
import type { Clock } from '../lib/clock';

export interface IdleTimerOptions {
  idleTimeoutMs: number;
  warnBeforeMs?: number;
  serverGranularityMs?: number;
  clock: Clock;
  /** The warning should show; `deadline` is when the session ends without activity. */
  onWarn(deadline: number): void;
  /** Activity happened after a warning: hide it. */
  onResume(): void;
  /** The deadline passed with no activity. */
  onExpire(): void;
}

export class IdleTimer {
  private lastContact: number;
  private handle: unknown = null;
  private warned = false;
  private stopped = false;
  private readonly warnBeforeMs: number;
  private readonly granularityMs: number;

  constructor(private readonly options: IdleTimerOptions) {
    this.warnBeforeMs = options.warnBeforeMs ?? 60_000;
    this.granularityMs = options.serverGranularityMs ?? 30_000;
    this.lastContact = options.clock.now();
    this.schedule();
  }

  /** The earliest time the server may end the session. */
  deadline(): number {
    const margin = Math.min(this.granularityMs, this.options.idleTimeoutMs / 2);
    return this.lastContact - margin + this.options.idleTimeoutMs;
  }

  /** A minute before the deadline; with very short timeouts, halfway to it. */
  warningAt(): number {
    const deadline = this.deadline();
    const warnBefore = Math.min(this.warnBeforeMs, (deadline - this.lastContact) / 2);
    return deadline - warnBefore;
  }

  isWarning(): boolean {
    return this.warned;
  }

  /** The server answered an authenticated request at `at` (this tab or another). */
  contact(at: number): void {
    if (this.stopped || at <= this.lastContact) return;
    this.lastContact = at;
    if (this.warned) {
      this.warned = false;
      this.options.onResume();
    }
    this.schedule();
  }

  /** The person typed or clicked here: they are present, so the screen is not left
   * unattended, whether or not the server could be told (offline, it cannot). */
  activity(at: number): void {
    this.contact(at);
  }

  stop(): void {
    this.stopped = true;
    if (this.handle !== null) this.options.clock.clearTimeout(this.handle);
    this.handle = null;
  }

  private schedule(): void {
    const { clock } = this.options;
    if (this.handle !== null) clock.clearTimeout(this.handle);
    const now = clock.now();
    const target = this.warned ? this.deadline() : this.warningAt();
    this.handle = clock.setTimeout(() => this.tick(), Math.max(0, target - now));
  }

  private tick(): void {
    this.handle = null;
    if (this.stopped) return;
    const now = this.options.clock.now();
    if (now >= this.deadline()) {
      this.stop();
      this.options.onExpire();
      return;
    }
    if (!this.warned && now >= this.warningAt()) {
      this.warned = true;
      this.options.onWarn(this.deadline());
    }
    this.schedule();
  }
}
