// A tool says which of its input fields hold secret values (the audit and a
// change request never keep those as sent). Nothing defaults: a field whose
// name looks secret must be declared secret (`secretFields`) or plain
// (`plainFields`), or the catalogue does not load, so a new tool cannot put a
// new secret into the audit by saying nothing.
import type { Tool } from './types.js';

/** Names that suggest a secret value: passwords, tokens, keys, credentials, a secret's value. */
const LOOKS_SECRET = /secret|passw|passphrase|token|credential|api_?key|private_?key|^key$|^value$/i;

/** The top-level input fields of a tool's schema. */
function inputFields(tool: Tool): string[] {
  const properties = tool.input_schema.properties;
  return properties && typeof properties === 'object' ? Object.keys(properties) : [];
}

/** The sentence saying what a tool leaves undeclared or declares wrong, or null when its secret fields are declared. */
export function undeclaredSecrets(tool: Tool): string | null {
  const fields = inputFields(tool);
  const unknown = [...tool.secretFields, ...tool.plainFields].filter((field) => !fields.includes(field));
  if (unknown.length > 0) {
    return `tool ${tool.name} declares ${unknown.map((f) => `"${f}"`).join(', ')} in secretFields or plainFields, which its input schema does not have`;
  }
  const both = tool.secretFields.filter((field) => tool.plainFields.includes(field));
  if (both.length > 0) return `tool ${tool.name} declares ${both.map((f) => `"${f}"`).join(', ')} both secret and plain; say which`;
  const undeclared = fields.filter((field) => LOOKS_SECRET.test(field) && !tool.secretFields.includes(field) && !tool.plainFields.includes(field));
  if (undeclared.length === 0) return null;
  const named = undeclared.map((f) => `"${f}"`).join(', ');
  return `tool ${tool.name} has input ${undeclared.length === 1 ? 'field' : 'fields'} ${named} that looks secret: list ${undeclared.length === 1 ? 'it' : 'them'} in secretFields (the audit keeps [redacted]) or in plainFields (${undeclared.length === 1 ? 'it holds' : 'they hold'} no secret value)`;
}

/** Throws when a tool of the catalogue leaves a secret-looking field undeclared: the server does not start with it. */
export function assertSecretsDeclared(catalogue: readonly Tool[]): void {
  const problems = catalogue.map(undeclaredSecrets).filter((sentence) => sentence !== null);
  if (problems.length > 0) throw new Error(problems.join('; '));
}

const REDACTED = '[redacted]';

/** The input as the audit and a change request keep it: each declared secret field's value replaced. */
export function redact(tool: Tool, input: unknown): unknown {
  if (tool.secretFields.length === 0 || !input || typeof input !== 'object' || Array.isArray(input)) return input;
  const copy: Record<string, unknown> = { ...(input as Record<string, unknown>) };
  for (const field of tool.secretFields) if (field in copy) copy[field] = REDACTED;
  return copy;
}
