// A document at the size limit checks and saves over REST and MCP, whatever its
// characters cost in JSON: the limit counts the text's UTF-8 bytes (1 MiB),
// and the body cap of the routes that carry a text leaves room for escaping.
// One byte more is refused with its sentence.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request, type Answer } from '../helpers/http.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

const LIMIT = 1_048_576;
const TOO_LARGE = /^the document is 1,048,577 bytes of UTF-8, over the limit of 1 MiB \(1,048,576 bytes\); split it into smaller documents$/;

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer('pglite', { demo: true });
});
afterAll(() => server.stop());

/** Valid YAML of exactly `bytes` UTF-8 bytes: comment lines of quotes, backslashes and non-ASCII, and one key. */
function escapingYaml(bytes: number): string {
  const line = '# "quoted" \\back\\slashed\\ é ü 漢字 ✓ 😀\n';
  const head = 'key: "a \\"quoted\\" value"\n';
  const lines = Math.floor((bytes - Buffer.byteLength(head) - 2) / Buffer.byteLength(line));
  const text = head + line.repeat(lines);
  // The rest in one-byte characters that escape too, and a last line end.
  return `${text}#${'"'.repeat(bytes - Buffer.byteLength(text) - 2)}\n`;
}

/** JSON as a client that escapes every non-ASCII character writes it (Python's json.dumps): 6 or 12 bytes each. */
function asciiJson(value: unknown): string {
  return JSON.stringify(value).replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

function runTool(name: string, input: Record<string, unknown>, encode: (value: unknown) => string = JSON.stringify): Promise<Answer> {
  return request(server.url, 'POST', `/api/v1/assistant/tools/${name}`, {
    token: server.demoTokens.ada,
    rawBody: encode(input),
    headers: { 'content-type': 'application/json' },
  });
}

function resultOf(answer: Answer): { is_error: boolean; result: Record<string, unknown> } {
  expect(answer.status, answer.text.slice(0, 300)).toBe(200);
  return answer.body as { is_error: boolean; result: Record<string, unknown> };
}

describe('a document at the size limit', () => {
  const texts: [string, string, (value: unknown) => string][] = [
    ['quotes, backslashes, newlines and non-ASCII, escaped to ASCII', escapingYaml(LIMIT), asciiJson],
    ['control characters, the worst escaping (6 bytes each)', `a: 1\n#${'\u0001'.repeat(LIMIT - 7)}\n`, JSON.stringify],
  ];

  for (const [name, text, encode] of texts) {
    it(`checks and saves a text of exactly 1 MiB of ${name}`, async () => {
      expect(Buffer.byteLength(text)).toBe(LIMIT);
      const body = encode({ project: 'shop', path: 'at-limit.yaml', environment: 'staging', text });
      // Over the 1 MiB body cap every other route keeps.
      expect(Buffer.byteLength(body)).toBeGreaterThan(1.5 * LIMIT);

      const checked = resultOf(await runTool('check_document', { project: 'shop', environment: 'staging', path: 'at-limit.yaml', text }, encode));
      expect(checked.is_error).toBe(false);
      const diagnostics = checked.result.diagnostics as { message: string }[];
      expect(diagnostics.map((d) => d.message).join('\n')).not.toMatch(/over the limit/);

      const current = resultOf(await runTool('read_document', { project: 'shop', path: 'at-limit.yaml' }));
      const base = current.is_error ? {} : { base_revision: current.result.revision };
      const saved = resultOf(await runTool('write_document', { project: 'shop', path: 'at-limit.yaml', text, ...base }, encode));
      expect(saved.is_error, JSON.stringify(saved.result)).toBe(false);
      const read = resultOf(await runTool('read_document', { project: 'shop', path: 'at-limit.yaml' }));
      expect(read.result.text === text, 'the saved text is the text sent').toBe(true);
    }, 180_000);
  }

  it('refuses one byte more: the check says why, the save is refused with its sentence', async () => {
    const text = escapingYaml(LIMIT) + '"';
    expect(Buffer.byteLength(text)).toBe(LIMIT + 1);
    const checked = resultOf(await runTool('check_document', { project: 'shop', environment: 'staging', path: 'over.yaml', text }));
    expect(checked.result.diagnostics).toEqual([{ line: 1, column: 1, message: expect.stringMatching(TOO_LARGE) }]);
    const saved = resultOf(await runTool('write_document', { project: 'shop', path: 'over.yaml', text }));
    expect(saved).toEqual({ is_error: true, tool: 'write_document', result: { error: 'the text is 1,048,577 bytes of UTF-8; a document holds at most 1 MiB (1,048,576 bytes): split it into smaller documents' } });
  });

  it('refuses a body over the document routes\' cap (6 MiB + 64 KiB) with 413 and a sentence', async () => {
    const cap = 6 * LIMIT + 64 * 1024;
    const answer = await request(server.url, 'POST', '/api/v1/assistant/tools/check_document', {
      token: server.demoTokens.ada,
      rawBody: JSON.stringify({ project: 'shop', environment: 'staging', path: 'x.yaml', text: '\u0001'.repeat(Math.ceil(cap / 6)) }),
      headers: { 'content-type': 'application/json' },
    });
    expect(answer.status).toBe(413);
    expect(answer.body).toEqual({ error: `the request body is larger than ${cap} bytes; send less` });
  });
});
