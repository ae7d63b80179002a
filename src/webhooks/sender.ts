// Each server's sender: takes due deliveries (src/webhooks/deliveries.ts),
// posts them (a few at a time), records each try, and retries a failed one
// with exponential backoff and jitter until it runs out of tries. It looks
// now and then, and at once when a change it may have to tell commits here
// or on another server (the change notices).
import type { WebhookConfig } from '../config.js';
import type { SecretBox } from '../domain/secret-box.js';
import { messageOf } from '../errors.js';
import type { Changes } from '../store/changes.js';
import type { Db } from '../store/db.js';
import { claimDue, recordTry, type Claimed } from './deliveries.js';
import { bodyOf } from './payloads.js';
import { postOnce } from './posting.js';

const BATCH = 10;
const POLL_MS = 2_000;
const MAX_BACKOFF_MS = 6 * 3_600_000;

export interface SenderLog {
  warn(message: string): void;
  error(details: { err: unknown }, message: string): void;
}

/** The wait after try `attempts` failed: backoff × 4^(attempts−1), at most 6 h, between half and all of it. */
export function retryDelay(backoffMs: number, attempts: number): number {
  const full = Math.min(MAX_BACKOFF_MS, backoffMs * 4 ** (attempts - 1));
  return Math.round(full / 2 + (Math.random() * full) / 2);
}

export class WebhookSender {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private again = false;
  private stopped = false;
  private unsubscribe: (() => void) | null = null;

  constructor(
    private readonly deps: { db: Db; changes: Changes; secretBox: SecretBox; config: WebhookConfig; log: SenderLog },
    /** Where people reach the console, for the links sent. */
    private readonly consoleUrl: string,
  ) {}

  start(): void {
    this.unsubscribe = this.deps.changes.subscribe((topic) => {
      if (topic.startsWith('change-requests:') || (topic.startsWith('threads:') && topic.endsWith(':proposal')) || topic === '*') this.wake();
    });
    this.timer = setInterval(() => this.wake(), Math.min(POLL_MS, this.deps.config.backoffMs));
    this.timer.unref();
    this.wake();
  }

  /** Stops looking; a try under way finishes and is recorded. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.unsubscribe?.();
    if (this.timer) clearInterval(this.timer);
    await this.running;
  }

  /** Sends what is due; called while sending, it looks once more after. */
  wake(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.sendDue()
      .catch((err: unknown) => this.deps.log.error({ err }, 'sending webhooks failed; trying again shortly'))
      .finally(() => {
        this.running = null;
        if (this.again) {
          this.again = false;
          this.wake();
        }
      });
  }

  private async sendDue(): Promise<void> {
    const { timeoutMs } = this.deps.config;
    // A try's lease outlasts its timeout, so no other sender takes it while it may still arrive.
    const leaseMs = 2 * timeoutMs + 5_000;
    for (;;) {
      if (this.stopped) return;
      const claimed = await claimDue(this.deps.db, BATCH, leaseMs);
      if (claimed.length === 0) return;
      await Promise.all(claimed.map((one) => this.send(one)));
    }
  }

  private async send(claimed: Claimed): Promise<void> {
    const { attempts: most, timeoutMs, allowPrivate, backoffMs } = this.deps.config;
    // Over its tries already: its last sender stopped before recording it.
    const outcome =
      claimed.attempts > most
        ? { statusCode: null, error: 'the server sending its last try stopped before it was answered' }
        : await postOnce(
            {
              url: claimed.url,
              secret: this.deps.secretBox.open(claimed.sealedSecret),
              event: claimed.payload.event,
              delivery: claimed.id,
              body: bodyOf(claimed.payload, claimed.id, this.consoleUrl),
            },
            { timeoutMs, allowPrivate },
          ).catch((error: unknown) => ({ statusCode: null, error: `could not deliver: ${messageOf(error)}` }));
    const delivered = outcome.error === null;
    const retryIn = delivered || claimed.attempts >= most ? null : retryDelay(backoffMs, claimed.attempts);
    await recordTry(this.deps.db, claimed, outcome, retryIn);
    if (!delivered && retryIn === null) {
      this.deps.log.warn(`webhook delivery ${claimed.id} of hook ${claimed.webhook} failed after ${claimed.attempts} tries: ${outcome.error ?? ''}`);
    }
  }
}
