// The shared text in the store: an edit batch writes what it replaced, not
// the whole text, and any server (here a second ConversationContexts over the
// same store, with nothing in memory) reads the exact current text: the base
// with the logged batches replayed, before and after the log is folded in.
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOperator } from '../../src/access/operators.js';
import { ConversationContexts } from '../../src/conversation/context.js';
import { applyEdits, type TextEdit } from '../../src/documents/index.js';
import { Changes } from '../../src/store/changes.js';
import { threadContextEdits, threadContexts, threads } from '../../src/store/schema.js';
import { openTestStore, STORE_KINDS, type TestStore } from '../helpers/store.js';

describe.each(STORE_KINDS)('the shared text on %s', (kind) => {
  let test: TestStore;
  let changes: Changes;
  let here: ConversationContexts;
  let operatorId: string;
  /** Another server's view: the same store, nothing kept in memory. */
  const elsewhere = () => new ConversationContexts(test.store.db, changes);

  beforeAll(async () => {
    test = await openTestStore(kind);
    changes = await Changes.open(test.store, { warn: () => {}, info: () => {} });
    here = new ConversationContexts(test.store.db, changes);
    operatorId = (await createOperator(test.store.db, { name: 'ada', owner: true })).id;
  });
  afterAll(() => test.cleanup());

  const lines = (count: number) => Array.from({ length: count }, (_, line) => `key_${line}: value ${line}\n`).join('');

  async function sharedThread(text: string): Promise<string> {
    const [thread] = await test.store.db.insert(threads).values({ operatorId, environment: '' }).returning();
    if (!thread) throw new Error('no thread');
    await here.share(thread.id, { document: { path: 'big.yaml', text } });
    return thread.id;
  }

  async function edit(contexts: ConversationContexts, thread: string, edits: TextEdit[]): Promise<string> {
    const edited = await contexts.editText(thread, (document) => {
      const outcome = applyEdits(document.text, edits);
      if (!outcome.ok) throw new Error(outcome.message);
      return outcome;
    });
    return edited.document?.text ?? '';
  }

  async function stored(thread: string) {
    const [row] = await test.store.db
      .select({ base: threadContexts.documentText })
      .from(threadContexts)
      .where(eq(threadContexts.threadId, thread));
    const [log] = await test.store.db
      .select({ rows: sql<number>`count(*)::int`, bytes: sql<number>`coalesce(sum(octet_length(${threadContextEdits.replacements}::text)), 0)::int` })
      .from(threadContextEdits)
      .where(eq(threadContextEdits.threadId, thread));
    return { base: row?.base, rows: log?.rows, bytes: log?.bytes };
  }

  const textElsewhere = async (thread: string) => {
    const view = await elsewhere().read(thread);
    return view.shared ? { text: view.document?.text, revision: view.revision } : null;
  };

  it('stores the text once and each batch of small edits as a small log row', async () => {
    const original = lines(10_000); // about 200 KiB
    const thread = await sharedThread(original);
    let text = original;
    for (let batch = 0; batch < 10; batch++) {
      text = await edit(here, thread, [
        { old_string: `key_${batch * 100}: value`, new_string: `key_${batch * 100}: changed` },
        { old_string: `key_${batch * 100 + 50}: value`, new_string: `key_${batch * 100 + 50}: moved` },
      ]);
    }
    const { base, rows, bytes } = await stored(thread);
    expect(base).toBe(original);
    expect(rows).toBe(10);
    expect(bytes).toBeLessThan(2000);
    expect(await textElsewhere(thread)).toEqual({ text, revision: 11 });
  });

  it('lets another server edit the replayed text, and this one read its edit', async () => {
    const thread = await sharedThread(lines(100));
    await edit(here, thread, [{ old_string: 'key_1: value', new_string: 'key_1: here' }]);
    const text = await edit(elsewhere(), thread, [{ old_string: 'key_2: value', new_string: 'key_2: elsewhere' }]);
    expect(text).toContain('key_1: here 1\nkey_2: elsewhere 2\n');
    const view = await here.read(thread);
    expect(view).toMatchObject({ revision: 3, document: { text } });
  });

  it('folds the log into a new base once it passes 64 batches', async () => {
    const thread = await sharedThread(lines(100));
    let text = '';
    for (let batch = 0; batch < 64; batch++) text = await edit(here, thread, [{ old_string: `key_${batch}: value`, new_string: `key_${batch}: seen` }]);
    expect(await stored(thread)).toMatchObject({ rows: 64, base: lines(100) });
    expect(await textElsewhere(thread)).toEqual({ text, revision: 65 });
    text = await edit(here, thread, [{ old_string: 'key_64: value', new_string: 'key_64: seen' }]);
    expect(await stored(thread)).toMatchObject({ rows: 0, base: text });
    text = await edit(here, thread, [{ old_string: 'key_65: value', new_string: 'key_65: seen' }]);
    expect(await stored(thread)).toMatchObject({ rows: 1 });
    expect(await textElsewhere(thread)).toEqual({ text, revision: 67 });
  });

  it('stores a batch whole when it alone passes the bound', async () => {
    const thread = await sharedThread(lines(100));
    const text = await edit(here, thread, [{ old_string: 'key_0: value', new_string: 'x'.repeat(100_000) }]);
    expect(await stored(thread)).toMatchObject({ rows: 0, base: text });
    expect(await textElsewhere(thread)).toEqual({ text, revision: 2 });
  });

  it('stores a text the console puts as the new base, and forgets the log with the thread', async () => {
    const thread = await sharedThread(lines(100));
    await edit(here, thread, [{ old_string: 'key_0: value', new_string: 'key_0: seen' }]);
    const stale = await elsewhere().share(thread, { document: { path: 'big.yaml', text: 'a: 1\n' }, base_revision: 1 });
    expect(stale).toMatchObject({ stale: { revision: 2, document: { text: lines(100).replace('key_0: value', 'key_0: seen') } } });
    await elsewhere().share(thread, { document: { path: 'big.yaml', text: 'a: 1\n' }, base_revision: 2 });
    expect(await stored(thread)).toMatchObject({ rows: 0, base: 'a: 1\n' });
    expect(await here.read(thread)).toMatchObject({ revision: 3, document: { text: 'a: 1\n' } });

    await edit(here, thread, [{ old_string: 'a: 1', new_string: 'a: 2' }]);
    expect(await stored(thread)).toMatchObject({ rows: 1 });
    await test.store.db.delete(threads).where(eq(threads.id, thread));
    expect(await stored(thread)).toMatchObject({ rows: 0, base: undefined });
  });
});
