// assistant_document_edit at scale (DESIGN.md §11: 100 edits on 1 MiB in
// ≤ 20 ms, and ten times the text at most twelve times the time), through the
// executor on an embedded store — the tool's whole cost: the row lock, the
// edits, and storing the new text — beside the edits alone.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createOperator } from '../../src/access/operators.js';
import { readConfig } from '../../src/config.js';
import { applyEdits, type TextEdit } from '../../src/documents/edits.js';
import { buildApp } from '../../src/http/app.js';
import { openStore } from '../../src/store/db.js';
import { threadContexts, threads } from '../../src/store/schema.js';
import { median, ms, type Row } from './lib.js';

const EDITS = 100;
const RUNS = 11;
const SIZES = [
  { label: '100 KiB', bytes: 100 * 1024 },
  { label: '1 MiB', bytes: 1024 * 1024 },
  { label: '10 MiB', bytes: 10 * 1024 * 1024 },
];

const key = (line: number) => `service_${String(line).padStart(7, '0')}`;

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

/** 100 edits spread through the text, each a line that must be found once; `back` undoes them. */
function editsOf(lines: number, back: boolean): TextEdit[] {
  return Array.from({ length: EDITS }, (_, index) => {
    const line = Math.floor(((index + 0.5) * lines) / EDITS);
    const [from, to] = back ? ['replica', 'db'] : ['db', 'replica'];
    return { old_string: `${key(line)}: { host: ${from}-${line % 97}.`, new_string: `${key(line)}: { host: ${to}-${line % 97}.` };
  });
}

export async function editRows(): Promise<Row[]> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'aion-bench-edits-'));
  const store = await openStore({ dataDir, databaseUrl: null });
  let closeApp = async () => {};
  try {
    // The server's own services, closed as a server closes them (its turns' timers stop before the store).
    const { app, services } = await buildApp({ store, config: readConfig({ data: dataDir }, { AION_LOG_LEVEL: 'warn' }) });
    closeApp = () => app.close();
    const operator = await createOperator(store.db, { name: 'bench', owner: true });
    const rows: Row[] = [];
    const tool: number[] = [];
    for (const { label, bytes } of SIZES) {
      const { text, lines } = documentOf(bytes);
      const [thread] = await store.db.insert(threads).values({ operatorId: operator.id, environment: '' }).returning();
      if (!thread) throw new Error('no thread');
      await store.db.insert(threadContexts).values({ threadId: thread.id, shared: true, documentPath: 'big.yaml', documentText: text });
      const invocation = { operator, via: 'mcp' as const, threadId: thread.id, conversation: true };
      const times: number[] = [];
      const pure: number[] = [];
      for (let run = 0; run < RUNS; run++) {
        const edits = editsOf(lines, run % 2 === 1);
        let started = performance.now();
        const outcome = await services.executor.run(invocation, 'assistant_document_edit', { edits });
        times.push(performance.now() - started);
        if (outcome.is_error) throw new Error(String(outcome.result.error));
        started = performance.now();
        applyEdits(text, editsOf(lines, false));
        pure.push(performance.now() - started);
      }
      tool.push(median(times));
      rows.push({
        measure: `assistant_document_edit, 100 edits on ${label} (edits alone)`,
        figure: `${ms(median(times))} (${ms(median(pure))})`,
        target: label === '1 MiB' ? '≤ 20 ms' : '',
        met: label === '1 MiB' ? median(times) <= 20 : null,
      });
    }
    const ratio = (tool[2] ?? NaN) / (tool[1] ?? NaN);
    rows.push({ measure: 'assistant_document_edit, 10 MiB / 1 MiB time', figure: `${ratio.toFixed(1)}×`, target: '≤ 12×', met: ratio <= 12 });
    return rows;
  } finally {
    await closeApp();
    await store.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}
