// What a long thread with the `anthropic` model costs, before it costs it: the
// built server against a local Messages API on 127.0.0.1 that answers a scripted
// 20-turn thread (reads, then an answer, each turn) and reports the usage a
// real API would, from the cache breakpoints and prefixes it was sent
// (test/helpers/prompt-cache.ts). Run twice: at the default context budget,
// and at a small one where the history is trimmed.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { startMessagesApi, message, type RecordedRequest, type Reply } from '../assistant/providers/messages-api-server.js';
import { spawnServer } from '../helpers/process.js';
import { PromptCacheModel } from '../helpers/prompt-cache.js';
import type { Row } from './lib.js';

const TURNS = 20;
const TARGET = 0.8;

/** Turn t's model calls: one or two reads, then a short answer. */
function scriptOf(turn: number): unknown[][] {
  const reads =
    turn % 2 === 1
      ? [{ type: 'tool_use', id: `toolu_${turn}_a`, name: 'read_document', input: { project: 'shop', path: 'app.yaml' } }]
      : [
          { type: 'tool_use', id: `toolu_${turn}_a`, name: 'list_environments', input: {} },
          { type: 'tool_use', id: `toolu_${turn}_b`, name: 'list_deployments', input: { environment: 'staging' } },
        ];
  const answer = [{ type: 'text', text: `Turn ${turn}: app.yaml points at the checkout service; staging runs revision 2. ${'It checks out. '.repeat(12)}` }];
  return [[{ type: 'text', text: 'Let me look.' }, ...reads], answer];
}

async function post(base: string, token: string, route: string, body: unknown): Promise<unknown> {
  const response = await fetch(base + route, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${route} answered ${response.status}: ${await response.text()}`);
  return response.json();
}

interface Measured {
  calls: number;
  /** Input tokens of every call after the first, and those a real API would read from its cache. */
  afterFirst: { total: number; read: number };
  largestInput: number;
  recorded: Record<string, number>;
}

async function thread(contextTokens: number): Promise<Measured> {
  const cache = new PromptCacheModel();
  const queue: unknown[][] = [];
  const served: Array<{ total: number; read: number; request: number }> = [];
  const api = await startMessagesApi((sent: RecordedRequest): Reply => {
    const usage = cache.serve(sent.body);
    // The whole request, at the budget's estimate (four characters a token).
    served.push({ total: usage.total, read: usage.read, request: Math.ceil(JSON.stringify(sent.body).length / 4) });
    const content = queue.shift() ?? [{ type: 'text', text: 'nothing scripted' }];
    const reply = message(content, content.some((block) => (block as { type: string }).type === 'tool_use') ? 'tool_use' : 'end_turn');
    const reported = {
      input_tokens: usage.uncached,
      output_tokens: Math.ceil(JSON.stringify(content).length / 4),
      cache_creation_input_tokens: usage.written,
      cache_read_input_tokens: usage.read,
    };
    return { ...reply, body: { ...(reply.body as object), usage: reported } };
  });
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'aion-bench-cache-'));
  const server = await spawnServer(['--demo', '--data', dataDir], {
    AION_MODEL: 'anthropic',
    ANTHROPIC_API_KEY: 'sk-ant-bench-local-never-sent-out',
    ANTHROPIC_BASE_URL: api.baseURL,
    AION_CONTEXT_TOKENS: String(contextTokens),
  });
  try {
    const demo = JSON.parse(await readFile(path.join(dataDir, 'demo-tokens.json'), 'utf8')) as Record<string, string>;
    const ada = demo.ada ?? '';
    const { id } = (await post(server.url, ada, '/api/v1/assistant/threads', { project: 'shop', environment: 'staging' })) as { id: string };
    for (let turn = 1; turn <= TURNS; turn++) {
      queue.push(...scriptOf(turn));
      await post(server.url, ada, `/api/v1/assistant/threads/${id}/messages`, {
        text: `Turn ${turn}: what does app.yaml say about the checkout, and is staging up to date? ${'Here is what I saw on the page. '.repeat(8)}`,
      });
    }
    const usage = await fetch(`${server.url}/api/v1/assistant/threads/${id}/usage`, { headers: { authorization: `Bearer ${ada}` } });
    const later = served.slice(1);
    return {
      calls: served.length,
      afterFirst: { total: later.reduce((sum, s) => sum + s.total, 0), read: later.reduce((sum, s) => sum + s.read, 0) },
      largestInput: Math.max(...served.map((s) => s.request)),
      recorded: (await usage.json()) as Record<string, number>,
    };
  } finally {
    await server.stop();
    await api.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}

const thousands = (n: number) => n.toLocaleString('en-US');

export async function promptCacheRows(): Promise<Row[]> {
  const rows: Row[] = [];
  for (const contextTokens of [60_000, 8_000]) {
    process.stdout.write(`prompt cache: a ${TURNS}-turn thread at AION_CONTEXT_TOKENS=${contextTokens}…\n`);
    const measured = await thread(contextTokens);
    const share = measured.afterFirst.read / measured.afterFirst.total;
    const { recorded } = measured;
    rows.push(
      {
        measure: `${TURNS}-turn thread, AION_CONTEXT_TOKENS=${thousands(contextTokens)}: input a real API serves from its cache, calls 2–${measured.calls}`,
        figure: `${(100 * share).toFixed(1)} % (${thousands(measured.afterFirst.read)} of ${thousands(measured.afterFirst.total)} tokens)`,
        target: `≥ ${100 * TARGET} %`,
        met: share >= TARGET,
      },
      {
        measure: '  largest request of one call (tools + system + history + framing)',
        figure: `${thousands(measured.largestInput)} tokens`,
        target: `≤ ${thousands(contextTokens)} (AION_CONTEXT_TOKENS)`,
        met: measured.largestInput <= contextTokens,
      },
      {
        measure: '  as recorded (GET …/usage): input / cache write / cache read / output',
        figure: [recorded.input_tokens, recorded.cache_creation_input_tokens, recorded.cache_read_input_tokens, recorded.output_tokens].map((n) => thousands(n ?? 0)).join(' / '),
        target: `${recorded.calls} calls; for reference`,
        met: null,
      },
    );
  }
  return rows;
}
