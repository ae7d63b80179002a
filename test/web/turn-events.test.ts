// A running turn as the panel builds it from its events
// (web/src/assistant/liveTurn): text deltas joined, tool calls upserted by id
// in the order they first came, the plan replaced whole, proposals listed;
// `started` and `ended` change nothing shown.
import { describe, expect, it } from 'vitest';
import type { ToolCall } from '../../src/wire/agent-work.js';
import type { TurnEvent } from '../../src/wire/turn-event.js';
import { applyTurnEvent, NO_PROGRESS } from '../../web/src/assistant/liveTurn.js';

const call = (id: string, status: string, title = `call ${id}`): ToolCall => ({ id, title, kind: 'read', status, locations: [] });
const fold = (events: TurnEvent[]) => events.reduce(applyTurnEvent, NO_PROGRESS);

describe('applyTurnEvent', () => {
  it('joins text deltas in order', () => {
    expect(fold([{ type: 'text', delta: 'Deploying ' }, { type: 'text', delta: 'r3 ' }, { type: 'text', delta: 'now.' }]).text).toBe('Deploying r3 now.');
  });

  it('adds a tool call by its id and updates it in place, keeping the order calls first came in', () => {
    const live = fold([
      { type: 'tool_call', tool_call: call('a', 'pending') },
      { type: 'tool_call', tool_call: call('b', 'pending') },
      { type: 'tool_call', tool_call: call('a', 'completed', 'read app.yaml') },
    ]);
    expect(live.toolCalls).toEqual([call('a', 'completed', 'read app.yaml'), call('b', 'pending')]);
  });

  it('replaces the plan whole, and lists each proposal made', () => {
    const live = fold([
      { type: 'plan', entries: [{ content: 'read', priority: 'high', status: 'in_progress' }] },
      { type: 'proposal', id: 'p1', tool: 'deploy', title: 'Deploy app.yaml r3 to staging' },
      { type: 'plan', entries: [{ content: 'read', priority: 'high', status: 'completed' }, { content: 'deploy', priority: 'medium', status: 'pending' }] },
      { type: 'proposal', id: 'p2', tool: 'set_secret', title: 'Set API_KEY in staging' },
    ]);
    expect(live.plan).toEqual([
      { content: 'read', priority: 'high', status: 'completed' },
      { content: 'deploy', priority: 'medium', status: 'pending' },
    ]);
    expect(live.proposals).toEqual([
      { id: 'p1', tool: 'deploy', title: 'Deploy app.yaml r3 to staging' },
      { id: 'p2', tool: 'set_secret', title: 'Set API_KEY in staging' },
    ]);
  });

  it('leaves the turn as it was on started and ended', () => {
    const live = fold([{ type: 'text', delta: 'hi' }]);
    expect(applyTurnEvent(live, { type: 'started' })).toBe(live);
    expect(applyTurnEvent(live, { type: 'ended', stop_reason: 'end_turn' })).toBe(live);
  });

  it('builds a new turn each time, never changing the one before (nor the empty one)', () => {
    const first = applyTurnEvent(NO_PROGRESS, { type: 'tool_call', tool_call: call('a', 'pending') });
    const second = applyTurnEvent(first, { type: 'tool_call', tool_call: call('a', 'completed') });
    expect(first.toolCalls).toEqual([call('a', 'pending')]);
    expect(second.toolCalls).toEqual([call('a', 'completed')]);
    expect(NO_PROGRESS).toEqual({ text: '', toolCalls: [], plan: [], proposals: [], questions: [] });
  });

  it("shows an agent's question until it is closed", () => {
    const question = { id: '00000000-0000-4000-8000-000000000001', message: 'Which?', fields: [] };
    const asked = applyTurnEvent(NO_PROGRESS, { type: 'question', question });
    expect(asked.questions).toEqual([question]);
    expect(applyTurnEvent(asked, { type: 'question_closed', id: question.id, outcome: 'declined' }).questions).toEqual([]);
  });
});
