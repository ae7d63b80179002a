// An agent's CPU time per turn (AION_AGENT_CPU_SECONDS): from the start of a
// turn, what its whole process tree uses (./cpu-time) until the next turn
// starts — so what a turn left running in the background after its answer
// counts against that turn, not against nothing. Read every second; past the
// budget the owner is told once (it stops the agent). A budget overshoots by
// at most a second's reading times the cores the agent keeps busy.
import { treeCpuSeconds } from './cpu-time.js';

const READ_EVERY_MS = 1_000;

export class CpuBudget {
  /** The tree's CPU seconds when the current turn started; null before the first turn. */
  private baseline: number | null = null;
  private timer: NodeJS.Timeout | null = null;
  private reading = false;
  private exceeded = false;
  /** Which turn's baseline a reading that lands late belongs to. */
  private turn = 0;

  constructor(
    private readonly pid: number | undefined,
    private readonly seconds: number,
    private readonly onExceeded: (used: number) => void,
  ) {}

  /** A turn starts: its budget is counted from now (read beside the prompt, never delaying it). */
  turnStarts(): void {
    if (this.pid === undefined || this.exceeded) return;
    // No reading compares with the last turn's baseline once this one started.
    this.baseline = null;
    const turn = (this.turn += 1);
    void treeCpuSeconds(this.pid).then((seconds) => {
      if (turn === this.turn) this.baseline = seconds;
    });
    this.timer ??= setInterval(() => void this.read(), READ_EVERY_MS);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  private async read(): Promise<void> {
    if (this.reading || this.pid === undefined || this.baseline === null) return;
    this.reading = true;
    try {
      const now = await treeCpuSeconds(this.pid);
      if (now === null) return this.stop();
      // Time of a descendant reaped by none of the tree (SIGCHLD ignored) is lost: the sum may fall a little.
      const used = now - this.baseline;
      if (used > this.seconds && !this.exceeded) {
        this.exceeded = true;
        this.stop();
        this.onExceeded(used);
      }
    } finally {
      this.reading = false;
    }
  }
}
