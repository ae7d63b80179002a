// The `fake` model's answer when it gets tool results back (DESIGN.md §4):
// one text block, a line per result in order — `NAME: ok`, `NAME: error: …`
// or `NAME: proposed` — and the end of the turn.
import { parseJsonObject, quote } from './fake-script.js';
import { toolUses } from './message-parts.js';
import type { ModelMessage, ModelResponse, ToolResultBlock } from './types.js';

/** `earlier` is the history before the results; its newest assistant message made the calls. */
export function answerToolResults(results: readonly ToolResultBlock[], earlier: readonly ModelMessage[]): ModelResponse {
  const caller = earlier.findLast((message) => message.role === 'assistant');
  const calls = caller ? toolUses(caller) : [];
  const lines = results.map((result) => {
    const name = calls.find((call) => call.id === result.tool_use_id)?.name ?? `unknown tool ${result.tool_use_id}`;
    return `${name}: ${outcome(result)}`;
  });
  return { content: [{ type: 'text', text: lines.join('\n') }], stop_reason: 'end_turn' };
}

function outcome(result: ToolResultBlock): string {
  const body = parseJsonObject(result.content);
  const error = typeof body?.error === 'string' ? body.error : null;
  if (result.is_error) return `error: ${error ?? quote(result.content)}`;
  // The assistant answers a write it turned into a proposal with {"proposed": true, "proposal": "<id>", …}.
  if (body && (body.proposed === true || 'proposal' in body)) return 'proposed';
  return error === null ? 'ok' : `error: ${error}`;
}
