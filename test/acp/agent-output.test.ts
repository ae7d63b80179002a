// An agent cannot write into the server's log: the demo agent, in its
// sandbox, sends responses to requests never made whose ids carry a line
// break and a forged log line (which the ACP SDK prints), and floods its
// stderr with forged log lines. The log (`ops serve`'s stderr) holds each as
// a field of one line of its own, cut, at most 20 a second per agent, then
// one line saying how many were suppressed; no forged line.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client } from '../helpers/http.js';
import { spawnServer, type ServerProcess } from '../helpers/process.js';
import { freshDemoDataDir } from '../helpers/store.js';
import { waitFor } from '../helpers/wait.js';

interface Thread {
  id: string;
  messages: { role: string; text: string }[];
}
interface LogLine {
  level: number;
  msg: string;
  agent?: string;
  printed?: string;
  stderr?: string;
  suppressed?: number;
}

const FORGED = '{"level":60,"msg":"FORGED by the agent"}';
let server: ServerProcess;
let dataDir: string;

beforeAll(async () => {
  dataDir = await freshDemoDataDir();
  server = await spawnServer(['--demo', '--data', dataDir], { AION_LOG_LEVEL: 'info' });
});
afterAll(() => server?.stop());

describe("an agent's stderr and the SDK's prints about it", () => {
  it('reach the log only as a bounded, escaped field of one line per event, 20 a second per agent', async () => {
    const tokens = JSON.parse(await readFile(path.join(dataDir, 'demo-tokens.json'), 'utf8')) as Record<string, string>;
    const ada = client(server.url, tokens.ada ?? '');
    const opened = await ada.post('/api/v1/assistant/threads', { project: 'shop', environment: 'staging', agent: 'demo-agent' });
    const id = (opened.body as Thread).id;
    const before = server.stderr.length;
    const started = Date.now();
    const suppressedLines = () => server.stderr.slice(before).filter((line) => line.includes('"suppressed"')).length;
    // One flood, then the other once its count is said (each would fill the second's 20 lines alone).
    for (const [flood, counted] of [[`/forge 200 x\\n${FORGED}`, 1], [`/stderr 5000 ${FORGED}\\n${'y'.repeat(600)}`, 2]] as const) {
      const answer = await ada.post(`/api/v1/assistant/threads/${id}/messages`, { text: `${flood}\n/say done` });
      expect(answer.status, answer.text).toBe(200);
      // Asserted below, after what matters more.
      await waitFor(() => suppressedLines() >= counted, 3_000).catch(() => undefined);
    }
    const seconds = Math.ceil((Date.now() - started) / 1000) + 1;

    const lines = server.stderr.slice(before);
    // Every line is the logger's (Node's own warnings aside).
    const raw = lines.filter((line) => !line.startsWith('{') && !line.startsWith('(node:'));
    expect(raw).toEqual([]);
    const parsed = lines.filter((line) => line.startsWith('{')).map((line) => JSON.parse(line) as LogLine);
    expect(parsed.filter((line) => line.msg.includes('FORGED'))).toEqual([]);
    const agents = parsed.filter((line) => line.agent === 'demo-agent');
    expect(agents.some((line) => line.printed === `Got response to unknown request x\n${FORGED}`)).toBe(true);
    expect(agents.some((line) => line.stderr === FORGED)).toBe(true);
    expect(agents.some((line) => line.stderr === 'y'.repeat(500))).toBe(true);
    expect(agents.filter((line) => (line.suppressed ?? 0) > 0)).toHaveLength(2);
    // 20 a second, and one count of the suppressed per second.
    expect(agents.length).toBeLessThanOrEqual(21 * seconds);
    expect(lines.join('\n').length).toBeLessThan(21 * seconds * 800);
  });
});
