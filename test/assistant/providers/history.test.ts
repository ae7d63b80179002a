// trimHistory: oldest first, in steps, tool calls and their results together,
// always starting with a user message and keeping the newest one.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalMessage } from '../../../src/assistant/providers/canonical.js';
import { trimHistory } from '../../../src/assistant/providers/history.js';
import type { ModelMessage } from '../../../src/assistant/providers/types.js';

// As the budget counts them: as sent, four characters a token.
const tokens = (messages: readonly ModelMessage[]) => messages.reduce((chars, message) => chars + JSON.stringify(canonicalMessage(message)).length, 0) / 4;

const user = (text: string): ModelMessage => ({ role: 'user', content: text });
const answer = (text: string): ModelMessage => ({ role: 'assistant', content: [{ type: 'text', text }] });
const calls = (...ids: string[]): ModelMessage => ({
  role: 'assistant',
  content: ids.map((id) => ({ type: 'tool_use', id, name: 'read_document', input: { path: `${id}.yaml` } })),
});
const results = (...ids: string[]): ModelMessage => ({
  role: 'user',
  content: ids.map((id) => ({ type: 'tool_result', tool_use_id: id, content: JSON.stringify({ text: 'x'.repeat(200) }) })),
});

const history: ModelMessage[] = [
  user('first question'),
  calls('a', 'b'),
  results('a', 'b'),
  answer('first answer'),
  user('second question'),
  calls('c'),
  results('c'),
  answer('second answer'),
  user('third question'),
  calls('d'),
  results('d'),
];

describe('trimHistory', () => {
  it('keeps everything that fits', () => {
    expect(trimHistory(history, tokens(history))).toEqual(history);
  });

  it('drops the oldest messages first, up to the next user message', () => {
    const fromSecond = history.slice(4);
    expect(trimHistory(history, tokens(fromSecond))).toEqual(fromSecond);
    expect(trimHistory(history, tokens(fromSecond) + 1)).toEqual(fromSecond);
    expect(trimHistory(history, tokens(history) - 1)).toEqual(fromSecond);
  });

  it('keeps the newest user message and what follows it even over the budget', () => {
    expect(trimHistory(history, 1)).toEqual(history.slice(8));
    expect(trimHistory([user('x'.repeat(1000))], 1)).toEqual([user('x'.repeat(1000))]);
  });

  it('never starts with a tool result or an assistant message', () => {
    const opensWithAnAnswer = [answer('left over'), calls('z'), results('z'), user('question')];
    expect(trimHistory(opensWithAnAnswer, 1_000_000)).toEqual([user('question')]);
  });

  it('reads a user message with text blocks as the newest one', () => {
    const blocks: ModelMessage = { role: 'user', content: [{ type: 'text', text: 'question' }] };
    expect(trimHistory([user('old'), answer('old'), blocks], 1)).toEqual([blocks]);
  });

  it('returns a history that no user message can start whole, not repairing it', () => {
    expect(trimHistory([], 100)).toEqual([]);
    expect(trimHistory([calls('a'), results('a')], 1)).toEqual([calls('a'), results('a')]);
  });

  it('never starts at a user message without text, so it keeps the newest with text', () => {
    const empty: ModelMessage = { role: 'user', content: [] };
    expect(trimHistory([user('question'), answer('answer'), empty], 1)).toEqual([user('question'), answer('answer'), empty]);
  });

  it('drops turns down to three quarters of the budget, so the turns after keep the same start', () => {
    const turn = (n: number) => [user(`question ${n} ${'q'.repeat(300)}`), answer(`answer ${n} ${'a'.repeat(300)}`)];
    const thread = Array.from({ length: 12 }, (_v, n) => turn(n)).flat();
    const budget = tokens(thread.slice(0, 8)); // four turns
    // After n turns, the history is those turns and the new question.
    const starts = Array.from({ length: 12 }, (_v, n) => 2 * n + 1 - trimHistory(thread.slice(0, 2 * n + 1), budget).length);
    // Each trim drops two turns (down to three of the four that fit); the start then stays for the next two turns.
    expect(starts.map((start) => start / 2)).toEqual([0, 0, 0, 0, 2, 2, 4, 4, 6, 6, 8, 8]);
    for (let n = 0; n < 12; n++) expect(tokens(thread.slice(starts[n], 2 * n + 1))).toBeLessThanOrEqual(budget);
  });

  it('does not change its input', () => {
    const copy = structuredClone(history);
    trimHistory(history, 1);
    expect(history).toEqual(copy);
  });

  describe('on any history and budget', () => {
    // A conversation of turns: a question, some rounds of tool calls and results, maybe an answer.
    const turn = fc
      .record({
        question: fc.string({ maxLength: 80 }),
        rounds: fc.array(fc.integer({ min: 1, max: 3 }), { maxLength: 3 }),
        answered: fc.boolean(),
      })
      .map(({ question, rounds, answered }): Array<(next: () => string) => ModelMessage[]> => [
        () => [user(question)],
        ...rounds.map((count) => (next: () => string) => {
          const ids = Array.from({ length: count }, next);
          return [calls(...ids), results(...ids)];
        }),
        ...(answered ? [() => [answer(`answer to ${question}`)]] : []),
      ]);
    const conversation = fc.array(turn, { minLength: 1, maxLength: 6 }).map((turns) => {
      let id = 0;
      const next = () => `toolu_${(id += 1)}`;
      return turns.flat().flatMap((make) => make(next));
    });

    it('keeps a suffix that starts with a question, holds the newest question, pairs every result with its call, and fits when it can', () => {
      fc.assert(
        fc.property(conversation, fc.integer({ min: 0, max: 2_000 }), (messages, budget) => {
          const kept = trimHistory(messages, budget);
          const dropped = messages.length - kept.length;
          expect(kept).toEqual(messages.slice(dropped));

          const first = kept[0];
          expect(first?.role).toBe('user');
          expect(typeof first?.content).toBe('string');

          const newest = messages.findLastIndex((message) => typeof message.content === 'string' && message.role === 'user');
          expect(dropped).toBeLessThanOrEqual(newest);

          kept.forEach((message, index) => {
            if (message.role !== 'user' || typeof message.content === 'string') return;
            const previous = kept[index - 1];
            const callIds = previous?.role === 'assistant' ? previous.content.flatMap((block) => (block.type === 'tool_use' ? [block.id] : [])) : [];
            for (const block of message.content) if (block.type === 'tool_result') expect(callIds).toContain(block.tool_use_id);
          });

          // Fits unless only the newest question is left.
          if (dropped < newest) expect(tokens(kept)).toBeLessThanOrEqual(budget);

          // In steps: one message more never moves the start back, and moves it only
          // to three quarters of the budget (or as far as a question allows).
          const shorter = messages.slice(0, -1);
          const before = shorter.length - trimHistory(shorter, budget).length;
          expect(dropped).toBeGreaterThanOrEqual(before);
          if (dropped !== before && dropped < newest) expect(tokens(kept)).toBeLessThanOrEqual(budget * 0.75);
        }),
        { numRuns: 300 },
      );
    });
  });
});
