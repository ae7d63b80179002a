// A tool call of the built-in assistant as the thread shows it, streamed and
// stored alike: its name, whether it read or proposed a change, how it ended,
// and its input and result as JSON text, cut to what the panel shows (the
// model saw up to 50,000 characters of a result; the operator needs the start).
import type { ToolCall } from '../wire/agent-work.js';
import { redactCredentials } from './redaction.js';

/** What the panel shows of an input or a result. */
const SHOWN_CHARS = 4000;

export interface BuiltInCall {
  id: string;
  name: string;
  /** The input as JSON. */
  input: string;
  /** What the tool answered; null while it has not. */
  result: string | null;
  isError: boolean;
  proposed: boolean;
}

export function builtInToolCall(call: BuiltInCall): ToolCall {
  return {
    id: call.id,
    title: call.name,
    kind: call.proposed ? 'edit' : 'read',
    status: call.isError ? 'failed' : call.proposed ? 'proposed' : 'completed',
    locations: [],
    input: shown(call.input),
    ...(call.result === null ? {} : { result: shown(call.result) }),
  };
}

/** Credentials are redacted before the cut, so a cut never leaves part of one readable. */
function shown(text: string): string {
  const clean = redactCredentials(text);
  return clean.length > SHOWN_CHARS ? `${clean.slice(0, SHOWN_CHARS)}… [cut: ${text.length} characters in all]` : clean;
}
