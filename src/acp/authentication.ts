// Which of an agent's advertised authentication methods Aion can use: one
// whose environment variables the admin gave the agent (`env`, `pass_env`).
// Methods name their variables in a structured `vars` list (ACP's env_var
// methods) or, in agents that predate it, in their name or description
// ("Use GEMINI_API_KEY"); a method that names none is one Aion cannot satisfy.
import type * as acp from '@agentclientprotocol/sdk';

const VARIABLE = /\b[A-Z][A-Z0-9]*_[A-Z0-9_]+\b/g;

export function authenticationFor(methods: acp.AuthMethod[], env: Record<string, string>): { methodId: string } | { missing: string } {
  const wanted: string[] = [];
  for (const method of methods) {
    if ('type' in method && method.type === 'terminal') continue;
    const variables = variablesOf(method);
    if (variables.length > 0 && variables.every((name) => (env[name] ?? '') !== '')) return { methodId: method.id };
    wanted.push(...variables.filter((name) => !wanted.includes(name)));
  }
  if (wanted.length === 0) return { missing: 'it offers no method Aion can use (none by environment variable)' };
  return { missing: `pass it ${wanted.join(' or ')} (its "env" or "pass_env" in AION_AGENTS)` };
}

function variablesOf(method: acp.AuthMethod): string[] {
  const structured = (method as { vars?: unknown }).vars;
  if (Array.isArray(structured)) {
    return structured.flatMap((v: unknown) => (typeof (v as { name?: unknown })?.name === 'string' ? [(v as { name: string }).name] : []));
  }
  const text = `${method.name} ${method.description ?? ''}`;
  return [...new Set(text.match(VARIABLE) ?? [])];
}
