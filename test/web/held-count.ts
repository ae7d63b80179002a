// Streams counted by sampling (every 100 ms) as the browser reports them: a
// stream replaced by one with more topics is aborted as the new one answers,
// and the browser reports the abort a moment later, under load after the next
// one opened. So "held" is what lasts three samples in a row; the peak of any
// one sample is kept beside it for the message.
const SAMPLES = 3;

export class HeldCount {
  /** The most that lasted SAMPLES samples in a row. */
  most = 0;
  /** The most at any one sample. */
  peak = 0;
  private readonly last: number[] = [];

  add(count: number): void {
    this.peak = Math.max(this.peak, count);
    this.last.push(count);
    if (this.last.length > SAMPLES) this.last.shift();
    if (this.last.length === SAMPLES) this.most = Math.max(this.most, Math.min(...this.last));
  }
}
