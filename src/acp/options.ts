// A thread's agent options (its session's modes and config options: model,
// reasoning effort, …): shown on the thread as the agent last reported them,
// each value that would let it act without asking marked refused; the
// operator's choices (src/assistant/agent-options.ts) applied at a turn's
// start, every one checked again against what the session offers then.
import type * as acp from '@agentclientprotocol/sdk';
import { eq } from 'drizzle-orm';
import type { AgentChoices } from '../assistant/agent-options.js';
import type { Db } from '../store/db.js';
import { threads } from '../store/schema.js';
import type { AgentOptions, AgentOptionValue } from '../wire/agent-options.js';
import type { AgentProcess } from './agent-process.js';
import { askingOptionsOf, asksBeforeActing } from './modes.js';

/** What a session offers now, kept as the agent reports it. */
export interface SessionOptions {
  modes: acp.SessionModeState | null;
  configOptions: acp.SessionConfigOption[];
}

const refusal = (agent: string, what: string) => `${what} would let ${agent} act without asking; Aion keeps every agent asking before it acts`;

/** The sentence why a mode may not be chosen, or null. */
function modeRefusal(agent: string, modeId: string, modes: acp.SessionModeState): string | null {
  return asksBeforeActing(modeId, modes) ? null : refusal(agent, `mode ${modeId}`);
}

/** The sentence why an option may not take a value, or null: the value is refused when the session would have to turn it back. */
function valueRefusal(agent: string, option: acp.SessionConfigOption, value: string | boolean): string | null {
  const chosen = (option.type === 'boolean' ? { ...option, currentValue: value === true } : { ...option, currentValue: String(value) }) as acp.SessionConfigOption;
  const changes = askingOptionsOf([chosen]);
  return 'none' in changes || changes.length > 0 ? refusal(agent, `${option.name} ${typeof value === 'boolean' ? (value ? 'on' : 'off') : value}`) : null;
}

const selectValues = (option: Extract<acp.SessionConfigOption, { type: 'select' }>) =>
  option.options.flatMap((entry) => ('options' in entry ? entry.options : [entry]));

export function optionsView(agent: string, offered: SessionOptions): AgentOptions {
  const modes = offered.modes;
  return {
    mode:
      modes && modes.availableModes.length > 0
        ? {
            current: modes.currentModeId,
            values: modes.availableModes.map((m) => ({ value: m.id, name: m.name, description: m.description ?? null, refused: modeRefusal(agent, m.id, modes) })),
          }
        : null,
    options: offered.configOptions.map((option) => {
      const values: AgentOptionValue[] =
        option.type === 'boolean'
          ? [false, true].map((value) => ({ value, name: value ? 'On' : 'Off', description: null, refused: valueRefusal(agent, option, value) }))
          : selectValues(option).map((v) => ({ value: v.value, name: v.name, description: v.description ?? null, refused: valueRefusal(agent, option, v.value) }));
      return {
        id: option.id,
        name: option.name,
        description: option.description ?? null,
        category: option.category ?? null,
        type: option.type,
        current: option.currentValue,
        values,
      };
    }),
  };
}

/** Stores what the session offers now on its thread, for the thread's view. */
export async function storeOptions(db: Db, threadId: string, agent: string, offered: SessionOptions): Promise<void> {
  await db.update(threads).set({ agentOptions: optionsView(agent, offered) }).where(eq(threads.id, threadId));
}

/** Sets what the operator chose that the session does not have yet, and may: a choice refused or no longer offered is left. */
export async function applyChoices(agent: AgentProcess, sessionId: string, offered: SessionOptions, choices: AgentChoices): Promise<boolean> {
  let changed = false;
  const modes = offered.modes;
  if (choices.mode !== undefined && modes && modes.currentModeId !== choices.mode) {
    const offeredMode = modes.availableModes.some((m) => m.id === choices.mode);
    if (offeredMode && modeRefusal(agent.config.name, choices.mode, modes) === null) {
      await agent.agent.request('session/set_mode', { sessionId, modeId: choices.mode });
      modes.currentModeId = choices.mode;
      changed = true;
    }
  }
  for (const [configId, value] of Object.entries(choices.options)) {
    const option = offered.configOptions.find((o) => o.id === configId);
    if (!option || option.currentValue === value || option.type !== (typeof value === 'boolean' ? 'boolean' : 'select')) continue;
    if (option.type === 'select' && !selectValues(option).some((v) => v.value === value)) continue;
    if (valueRefusal(agent.config.name, option, value) !== null) continue;
    const request: acp.SetSessionConfigOptionRequest =
      typeof value === 'boolean' ? { sessionId, configId, type: 'boolean', value } : { sessionId, configId, value };
    const answer = await agent.agent.request('session/set_config_option', request);
    offered.configOptions = answer.configOptions;
    changed = true;
  }
  return changed;
}
