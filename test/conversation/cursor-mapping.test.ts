// assistant_context keeps "here" right: the operator's cursor and selection
// follow every edit batch (the assistant's edits, an agent's whole-text
// write), and a shared context holds only positions inside its text and the
// concepts the console declares.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findOperator, type Operator } from '../../src/access/operators.js';
import { client, type Client } from '../helpers/http.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

let server: TestServer;
let ada: Client;
let adaOperator: Operator;

beforeAll(async () => {
  server = await startTestServer('pglite', { demo: true });
  ada = client(server.url, server.demoTokens.ada ?? '');
  adaOperator = await findOperator(server.services.db, 'ada');
});
afterAll(() => server.stop());

interface Shared {
  concepts: string[];
  document: { text: string; cursor: { line: number; column: number } | null; selection: Record<string, number> | null };
}

async function sharing(document: object, extra: object = {}): Promise<{ thread: string; put: Shared }> {
  const thread = ((await ada.post('/api/v1/assistant/threads', { project: 'shop' })).body as { id: string }).id;
  const answer = await ada.put(`/api/v1/assistant/threads/${thread}/context`, { document, ...extra });
  expect(answer.status, answer.text).toBe(200);
  return { thread, put: answer.body as Shared };
}

async function context(thread: string): Promise<Shared> {
  const outcome = await server.services.executor.run({ operator: adaOperator, via: 'mcp', threadId: thread, conversation: true }, 'assistant_context', {});
  return outcome.result as unknown as Shared;
}

const edit = (thread: string, edits: { old_string: string; new_string: string }[]) =>
  server.services.executor.run({ operator: adaOperator, via: 'mcp', threadId: thread, conversation: true }, 'assistant_document_edit', { edits });

describe('the cursor and selection follow the assistant’s edits', () => {
  it('move down and across with lines and text added above and before them', async () => {
    const { thread } = await sharing({
      path: 'app.yaml',
      text: 'service: shop\nport: 8080\ndb: x\n',
      cursor: { line: 3, column: 4 },
      selection: { from_line: 2, from_column: 7, to_line: 2, to_column: 11 },
    });
    const edited = await edit(thread, [
      { old_string: 'service: shop\n', new_string: '# shop\nservice: shop\nregion: eu\n' },
      { old_string: 'port:', new_string: 'http_port:' },
    ]);
    expect(edited.is_error).toBe(false);
    expect((await context(thread)).document).toEqual({
      path: 'app.yaml',
      text: '# shop\nservice: shop\nregion: eu\nhttp_port: 8080\ndb: x\n',
      cursor: { line: 5, column: 4 },
      selection: { from_line: 4, from_column: 12, to_line: 4, to_column: 16 },
    });
  });

  it('stay put for edits below them, and keep an edit between two far apart exact', async () => {
    const { thread } = await sharing({ path: 'a.yaml', text: 'a: 1\nb: 2\nc: 3\nd: 4\n', cursor: { line: 3, column: 2 } });
    await edit(thread, [
      { old_string: 'a: 1', new_string: 'a: 1\na2: 1' },
      { old_string: 'd: 4', new_string: 'd: 44\ne: 5' },
    ]);
    expect((await context(thread)).document.cursor).toEqual({ line: 4, column: 2 });
  });

  it('a selection the edit replaced covers its replacement; a caret inside it goes to its start', async () => {
    const { thread } = await sharing({
      path: 'a.yaml',
      text: 'x: 1\nport: 8080\n',
      cursor: { line: 2, column: 9 },
      selection: { from_line: 2, from_column: 7, to_line: 2, to_column: 11 },
    });
    await edit(thread, [{ old_string: '8080', new_string: '9090 # moved' }]);
    expect((await context(thread)).document).toMatchObject({
      cursor: { line: 2, column: 7 },
      selection: { from_line: 2, from_column: 7, to_line: 2, to_column: 19 },
    });
  });

  it('follow CRLF and multi-byte lines as the editor counts them', async () => {
    const { thread } = await sharing({ path: 'a.yaml', text: 'name: café\r\nport: 1\r\n', cursor: { line: 2, column: 7 } });
    await edit(thread, [{ old_string: 'name: café', new_string: 'name: ☕ 🍰\r\nowner: ada' }]);
    expect((await context(thread)).document.cursor).toEqual({ line: 3, column: 7 });
  });
});

describe('the cursor follows a whole-text write of the shared buffer', () => {
  it('through the one span that changed', async () => {
    const { thread } = await sharing({ path: 'a.yaml', text: 'a: 1\nb: 2\n', cursor: { line: 2, column: 3 } });
    await server.services.contexts.editText(thread, () => 'top: 0\na: 1\nb: 2\n');
    expect((await context(thread)).document.cursor).toEqual({ line: 3, column: 3 });
  });
});

describe('PUT …/context', () => {
  it('clamps a cursor and a selection past the end of the text onto it', async () => {
    const { put } = await sharing({
      path: 'a.yaml',
      text: 'a: 1\nbb: 22',
      cursor: { line: 9, column: 40 },
      selection: { from_line: 1, from_column: 30, to_line: 7, to_column: 1 },
    });
    expect(put.document.cursor).toEqual({ line: 2, column: 7 });
    expect(put.document.selection).toEqual({ from_line: 1, from_column: 5, to_line: 2, to_column: 1 });
  });

  it('keeps only the concepts the console declares, by their titles, each once', async () => {
    const { put } = await sharing({ path: 'a.yaml', text: '' }, { concepts: ['Document', 'revision', 'Nonsense', 'Document', 'Ignore previous instructions'] });
    expect(put.concepts).toEqual(['Document', 'Revision']);
  });
});
