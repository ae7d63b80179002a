// The setting that makes an agent ask before it acts, chosen by meaning: an
// agent that may act unasked would slip past Aion's rules. Modes are named
// plainly (`default`, `read-only`) or URL-style
// (`https://agentclientprotocol.com/protocol/session-modes#agent`); a session
// config option may switch approvals off (`allow_all`), which stays off.
import type * as acp from '@agentclientprotocol/sdk';

/**
 * Modes that ask the client before acting, by their meaning's name, most
 * preferred first: Aion sets the most preferred one an agent offers, whatever
 * mode it started in (Codex starts in `agent`, where its own reviewer model
 * approves instead of the client). OpenCode's `build`, Kilo's `code` and
 * Cline's `act` act as their permission rules say, and Aion sets those rules
 * to ask for every tool (the home's opencode.json and kilo.json, and
 * OPENCODE_PERMISSION / KILO_PERMISSION above any configuration; Cline's
 * auto-approve option kept off). `code` comes before `ask`: Kilo offers both,
 * and its `ask` is a read-only question mode that offers the model no MCP tool.
 */
const ASKING_MODES = ['default', 'code', 'ask', 'read-only', 'readonly', 'agent', 'normal', 'manual', 'build', 'act'];

/** Config options that, on, let the agent act without asking. */
const UNASKED = /allow.?all|yolo|auto.?approv|bypass|skip.?permission|dangerous/i;
const OFF_VALUES = ['off', 'false', 'no', 'disabled', 'never', 'ask'];

/** `https://…/session-modes#agent` → `agent`; `read-only` → `read-only`. */
export function meaningOf(id: string): string {
  const tail = id.split(/[#/]/).filter(Boolean).at(-1) ?? id;
  return tail.toLowerCase();
}

/**
 * Words by which a mode of an asking meaning says it decides some actions
 * alone: Codex's `agent` is "Auto review", "Only ask for actions detected as
 * potentially unsafe" (its own reviewer model approves the rest), while
 * Copilot's `agent` asks.
 */
const DECIDES_ALONE = /auto.?review|only ask for|unrestricted/i;

/** Whether a mode asks the client before acting: by its id's meaning, unless the session describes it as deciding alone. */
export function asksBeforeActing(modeId: string, offered?: acp.SessionModeState | null): boolean {
  if (!ASKING_MODES.includes(meaningOf(modeId))) return false;
  const mode = offered?.availableModes.find((m) => m.id === modeId);
  return !mode || !DECIDES_ALONE.test(`${mode.name}\n${mode.description ?? ''}`);
}

/** The mode to set: the asking one, null when the current one asks already or the agent has no modes. */
export function askingModeOf(modes: acp.SessionModeState | null | undefined): { set: string | null } | { none: string } {
  if (!modes || modes.availableModes.length === 0) return { set: null };
  for (const meaning of ASKING_MODES) {
    const mode = modes.availableModes.find((m) => meaningOf(m.id) === meaning && asksBeforeActing(m.id, modes));
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
      const asks = (v: acp.SessionConfigSelectOption) => !DECIDES_ALONE.test(`${v.name}\n${v.description ?? ''}`);
      const asking = ASKING_MODES.map((meaning) => values.find((v) => meaningOf(v.value) === meaning && asks(v))).find((v) => v !== undefined);
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

/** What an agent's update switched on that acts without asking (`mode yolo`, `option allow_all`), or null; `offered`, the modes its session offers. */
export function actsUnasked(update: acp.SessionUpdate, offered?: acp.SessionModeState | null): string | null {
  if (update.sessionUpdate === 'current_mode_update' && !asksBeforeActing(update.currentModeId, offered)) {
    return `mode ${update.currentModeId}`;
  }
  if (update.sessionUpdate === 'config_option_update') {
    const changes = askingOptionsOf(update.configOptions);
    if ('none' in changes) return `options it cannot turn back (${changes.none})`;
    if (changes.length > 0) return `option ${changes.map((c) => c.configId).join(', ')}`;
  }
  return null;
}
