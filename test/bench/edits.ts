/**
 * `npx tsx test/bench/edits.ts`: the median time of one batch of 100 edits
 * (DESIGN §11: ≤ 20 ms on 1 MiB, and ten times the text at most twelve times
 * the time). Each edit rewrites one line, the lines spread evenly through the
 * document, so every edit needs its old_string confirmed unique across the
 * whole text.
 */
import { applyEdits } from '../../src/documents/edits.js';
import type { TextEdit } from '../../src/documents/edits.js';

const EDITS = 100;
const RUNS = 21;
const SIZES = [
  { label: '100 KiB', bytes: 100 * 1024 },
  { label: '1 MiB', bytes: 1024 * 1024 },
  { label: '10 MiB', bytes: 10 * 1024 * 1024 },
];

function key(line: number): string {
  return `service_${String(line).padStart(7, '0')}`;
}

function documentOf(bytes: number): { text: string; lines: number } {
  const lines: string[] = [];
  let size = 0;
  while (size < bytes) {
    const line = `${key(lines.length)}: { host: db-${lines.length % 97}.internal, port: ${5000 + (lines.length % 1000)} }\n`;
    lines.push(line);
    size += line.length;
  }
  return { text: lines.join(''), lines: lines.length };
}

function editsOf(lines: number): TextEdit[] {
  return Array.from({ length: EDITS }, (_, index) => {
    const line = Math.floor(((index + 0.5) * lines) / EDITS);
    return { old_string: `${key(line)}: { host: db-${line % 97}.`, new_string: `${key(line)}: { host: replica-${line % 97}.` };
  });
}

function medianMilliseconds(text: string, edits: TextEdit[]): number {
  const times: number[] = [];
  for (let run = 0; run < RUNS; run += 1) {
    const started = performance.now();
    const result = applyEdits(text, edits);
    times.push(performance.now() - started);
    if (!result.ok) throw new Error(result.message);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(RUNS / 2)] ?? NaN;
}

const medians = SIZES.map(({ label, bytes }) => {
  const { text, lines } = documentOf(bytes);
  const median = medianMilliseconds(text, editsOf(lines));
  console.log(`${label.padEnd(8)} ${EDITS} edits: median ${median.toFixed(2)} ms (${RUNS} runs)`);
  return median;
});
const [, oneMiB, tenMiB] = medians;
if (oneMiB !== undefined && tenMiB !== undefined) {
  console.log(`10 MiB / 1 MiB: ${(tenMiB / oneMiB).toFixed(2)}× (target ≤ 12×; 1 MiB target ≤ 20 ms)`);
}
