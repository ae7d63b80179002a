// The deterministic `fake` model of DESIGN.md §4, which tests and demos rely on.
//
// It follows the commands in the newest user message (see fake-script.ts):
//   /tool NAME {json}  a tool_use block (input `{}` when omitted); several lines, several calls, in order
//   /say TEXT          a text block
//   /refuse            only the refusal text, stop_reason "refusal"
//   /fail              rejects with ProviderError
//   /slow MS           answers after MS milliseconds (several add up; the abort signal cancels the wait)
// /slow waits first, wherever it stands; then /fail wins over /refuse, which
// wins over the rest. Prose lines are ignored when the message has commands.
// A command it cannot read (a /tool line whose input is not a JSON object, /say
// without text, /slow without a number) becomes a text block saying why, and
// the other lines still run. When no line gives a block (only prose, or only
// /slow), the answer is one text block `fake: ` + the first 200 characters of
// the message. When the last message carries tool results it answers them
// instead (fake-follow-up.ts).
import { setTimeout as sleep } from 'node:timers/promises';
import { answerToolResults } from './fake-follow-up.js';
import { quote, readScript, type ScriptLine } from './fake-script.js';
import { newestUserMessageIndex, toolResults, toolUses, userText } from './message-parts.js';
import { ProviderError, type AssistantBlock, type ModelMessage, type ModelProvider, type ModelRequest, type ModelResponse } from './types.js';

const MAX_TIMEOUT_MS = 2 ** 31 - 1;

export const FAKE_REFUSAL = 'fake: I will not do that (/refuse).';

export function createFakeProvider(): ModelProvider {
  return { name: 'fake', complete: answer };
}

async function answer(request: ModelRequest, signal?: AbortSignal): Promise<ModelResponse> {
  if (signal?.aborted) throw cancelled(signal.reason);
  const { messages } = request;
  const last = messages.at(-1);
  const results = last ? toolResults(last) : [];
  if (results.length > 0) return answerToolResults(results, messages.slice(0, -1));

  const newest = messages[newestUserMessageIndex(messages)];
  const text = (newest && userText(newest)) ?? '';
  const script = readScript(text);
  await wait(totalDelay(script), signal);
  if (script.some((line) => line.command === 'fail')) throw new ProviderError('the fake model failed, as /fail asked');
  if (script.some((line) => line.command === 'refuse')) {
    return { content: [{ type: 'text', text: FAKE_REFUSAL }], stop_reason: 'refusal' };
  }
  const content = blocks(script, toolUseCount(messages));
  if (content.length === 0) return { content: [{ type: 'text', text: `fake: ${quote(text)}` }], stop_reason: 'end_turn' };
  return { content, stop_reason: content.some((block) => block.type === 'tool_use') ? 'tool_use' : 'end_turn' };
}

/** Ids continue after the calls already in the history, so they are unique across the conversation as sent. */
function blocks(script: readonly ScriptLine[], earlierCalls: number): AssistantBlock[] {
  let calls = earlierCalls;
  return script.flatMap((line): AssistantBlock[] => {
    switch (line.command) {
      case 'tool':
        calls += 1;
        return [{ type: 'tool_use', id: `toolu_fake_${calls}`, name: line.name, input: line.input }];
      case 'say':
        return [{ type: 'text', text: line.text }];
      case 'bad':
        return [{ type: 'text', text: line.sentence }];
      default:
        return [];
    }
  });
}

function toolUseCount(messages: readonly ModelMessage[]): number {
  return messages.reduce((count, message) => count + toolUses(message).length, 0);
}

/** Capped at setTimeout's ceiling, past which Node would fire at once. */
function totalDelay(script: readonly ScriptLine[]): number {
  const total = script.reduce((sum, line) => sum + (line.command === 'slow' ? line.ms : 0), 0);
  return Math.min(total, MAX_TIMEOUT_MS);
}

async function wait(ms: number, signal: AbortSignal | undefined): Promise<void> {
  if (ms === 0) return;
  try {
    await sleep(ms, undefined, { signal });
  } catch (error) {
    throw cancelled(error);
  }
}

function cancelled(cause: unknown): ProviderError {
  return new ProviderError('the fake model was cancelled before it answered', { cause });
}
