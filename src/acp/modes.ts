// The setting that makes an agent ask before it acts, chosen by meaning: an
// agent that may act unasked would slip past Aion's rules. Modes are named
// plainly (`default`, `read-only`) or URL-style
// (`https://agentclientprotocol.com/protocol/session-modes#agent`); a session
// config option may switch approvals off (`allow_all`), which stays off.
import type * as acp from '@agentclientprotocol/sdk';

/** Modes that ask the client before acting, by their meaning's name, most preferred first. */
const ASKING_MODES = ['default', 'ask', 'read-only', 'readonly', 'agent', 'normal', 'manual'];

/** Config options that, on, let the agent act without asking. */
const UNASKED = /allow.?all|yolo|auto.?approv|bypass|skip.?permission|dangerous/i;
const OFF_VALUES = ['off', 'false', 'no', 'disabled', 'never', 'ask'];

/** `https://…/session-modes#agent` → `agent`; `read-only` → `read-only`. */
export function meaningOf(id: string): string {
  const tail = id.split(/[#/]/).filter(Boolean).at(-1) ?? id;
  return tail.toLowerCase();
}

/** Whether a mode (by its id's meaning) asks the client before acting. */
export function asksBeforeActing(modeId: string): boolean {
  return ASKING_MODES.includes(meaningOf(modeId));
}

/** The mode to set: the asking one, null when the current one asks already or the agent has no modes. */
export function askingModeOf(modes: acp.SessionModeState | null | undefined): { set: string | null } | { none: string } {
  if (!modes || modes.availableModes.length === 0) return { set: null };
  for (const meaning of ASKING_MODES) {
    const mode = modes.availableModes.find((m) => meaningOf(m.id) === meaning);
    if (mode) return { set: modes.currentModeId === mode.id ? null : mode.id };
  }
  return { none: modes.availableModes.map((m) => m.id).join(', ') };
}

/** The config options to change so the agent asks: each approval-skipping option turned off. */
export function askingOptionsOf(options: acp.SessionConfigOption[] | null | undefined): acp.SetSessionConfigOptionRequest[] | { none: string } {
  const changes: acp.SetSessionConfigOptionRequest[] = [];
  for (const option of options ?? []) {
    if (option.category === 'mode' && option.type === 'select') {
      const values = option.options.flatMap((entry) => ('options' in entry ? entry.options : [entry]));
      const asking = ASKING_MODES.map((meaning) => values.find((v) => meaningOf(v.value) === meaning)).find((v) => v !== undefined);
      if (!asking) return { none: values.map((v) => v.value).join(', ') };
      if (option.currentValue !== asking.value) changes.push({ sessionId: '', configId: option.id, value: asking.value });
      continue;
    }
    if (!UNASKED.test(option.id) && !UNASKED.test(option.name)) continue;
    if (option.type === 'boolean') {
      if (option.currentValue) changes.push({ sessionId: '', configId: option.id, type: 'boolean', value: false });
      continue;
    }
    const values = option.options.flatMap((entry) => ('options' in entry ? entry.options : [entry]));
    const off = values.find((v) => OFF_VALUES.includes(v.value.toLowerCase()) || OFF_VALUES.includes(v.name.toLowerCase()));
    if (!off) return { none: `${option.id} cannot be turned off (it offers ${values.map((v) => v.value).join(', ')})` };
    if (option.currentValue !== off.value) changes.push({ sessionId: '', configId: option.id, value: off.value });
  }
  return changes;
}

/** What an agent's update switched on that acts without asking (`mode yolo`, `option allow_all`), or null. */
export function actsUnasked(update: acp.SessionUpdate): string | null {
  if (update.sessionUpdate === 'current_mode_update' && !asksBeforeActing(update.currentModeId)) {
    return `mode ${update.currentModeId}`;
  }
  if (update.sessionUpdate === 'config_option_update') {
    const changes = askingOptionsOf(update.configOptions);
    if ('none' in changes) return `options it cannot turn back (${changes.none})`;
    if (changes.length > 0) return `option ${changes.map((c) => c.configId).join(', ')}`;
  }
  return null;
}
