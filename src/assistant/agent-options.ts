// The operator's choices among a thread's agent options (DESIGN.md §6): checked
// against what the agent last offered (a value that would let it act without
// asking is refused with the sentence why), kept on the thread, shown at once,
// and applied by the server that holds the agent at the next turn's start.
import { eq } from 'drizzle-orm';
import { conflict, invalid } from '../errors.js';
import type { Db } from '../store/db.js';
import { threads } from '../store/schema.js';
import type { AgentChoice } from '../wire/agent-options.js';
import type { ThreadRecord } from './threads.js';

/** What the operator chose: a mode, and values by option id. */
export interface AgentChoices {
  mode?: string;
  options: Record<string, string | boolean>;
}

export function choicesOf(thread: Pick<ThreadRecord, 'agentChoices'>): AgentChoices {
  const stored = thread.agentChoices;
  return { ...(stored?.mode !== undefined ? { mode: stored.mode } : {}), options: stored?.options ?? {} };
}

export async function chooseAgentOption(db: Db, thread: ThreadRecord, choice: AgentChoice): Promise<void> {
  if (!thread.agent) throw conflict('this thread is held by the built-in assistant, which has no agent options');
  const offered = thread.agentOptions;
  if (!offered) throw conflict(`${thread.agent} has not said what it offers yet: its options show once its session opens (send it a message)`);
  const choices = choicesOf(thread);
  const shown = structuredClone(offered);
  if ('mode' in choice) {
    const value = shown.mode?.values.find((v) => v.value === choice.mode);
    if (!shown.mode || !value) throw invalid(`${thread.agent} offers no mode ${choice.mode}${shown.mode ? ` (it offers ${shown.mode.values.map((v) => v.value).join(', ')})` : ''}`);
    if (value.refused) throw invalid(value.refused);
    choices.mode = choice.mode;
    shown.mode.current = choice.mode;
  } else {
    const option = shown.options.find((o) => o.id === choice.option);
    if (!option) throw invalid(`${thread.agent} offers no option ${choice.option} (it offers ${shown.options.map((o) => o.id).join(', ') || 'none'})`);
    const value = option.values.find((v) => v.value === choice.value);
    if (!value) throw invalid(`${option.name} has no value ${String(choice.value)} (it offers ${option.values.map((v) => String(v.value)).join(', ')})`);
    if (value.refused) throw invalid(value.refused);
    choices.options[option.id] = choice.value;
    option.current = choice.value;
  }
  await db.update(threads).set({ agentChoices: choices, agentOptions: shown }).where(eq(threads.id, thread.id));
}
