// A secret's value from the operator, not from the model (MCP 2026-07-28
// `input_required`). A set_secret call that leaves `value` out, from a client
// that declared form elicitation, is answered with an input request: the
// client asks its user for the value and retries the call with the answer,
// so the value goes from the person to Aion without entering the model's
// context (a value the model typed is one it has seen and may repeat).
// Stateless: the retry carries the same arguments, so no request state is
// minted. Clients of 2025-11-25, or without elicitation, are served as
// before: `value` is required (docs/decisions.md, "MCP 2026-07-28").
import { inputRequired, inputResponse, type CallToolResult, type InputRequiredResult, type Tool } from '@modelcontextprotocol/server';
import { errorResult } from './tools.js';

const TOOL = 'set_secret';
const FIELD = 'value';
/** The key of the one input request, named by what it asks for. */
const REQUEST_KEY = 'secret_value';
const VALUE_MAX = 65_536;

/** What the tools/call handler is told of the request: its envelope and any input responses (SDK 2.x `ctx.mcpReq`). */
export interface OperatorInputContext {
  envelope?: object;
  inputResponses?: Record<string, unknown>;
}

/** Whether the request's client declared form elicitation (the mode an input request here uses). */
export function elicitsForms(context: OperatorInputContext): boolean {
  const capabilities = (context.envelope as Record<string, unknown> | undefined)?.['io.modelcontextprotocol/clientCapabilities'];
  if (typeof capabilities !== 'object' || capabilities === null) return false;
  const elicitation = (capabilities as { elicitation?: unknown }).elicitation;
  if (typeof elicitation !== 'object' || elicitation === null) return false;
  // An empty elicitation capability means form mode (the spec's backwards-compatible reading).
  return Object.keys(elicitation).length === 0 || 'form' in elicitation;
}

/** The tool list as such a client sees it: set_secret's value may be left out, for the operator to type. */
export function offerOperatorInput(tools: Tool[]): Tool[] {
  return tools.map((tool) => {
    if (tool.name !== TOOL) return tool;
    const required = (tool.inputSchema.required ?? []).filter((name) => name !== FIELD);
    return {
      ...tool,
      description: `${tool.description ?? ''} Leave value out to have the operator type it: your client asks them, and the value never passes through you.`,
      inputSchema: { ...tool.inputSchema, required },
    };
  });
}

/**
 * For a set_secret call without a value from a client that elicits forms: the
 * input request for it, the arguments completed by the operator's answer, or
 * the result when they declined. Any other call: its arguments unchanged.
 */
export function operatorInput(
  name: string,
  input: Record<string, unknown>,
  context: OperatorInputContext,
): { input: Record<string, unknown> } | { answer: InputRequiredResult | CallToolResult } {
  if (name !== TOOL || Object.hasOwn(input, FIELD) || !elicitsForms(context)) return { input };
  const response = inputResponse(context.inputResponses, REQUEST_KEY);
  if (response.kind === 'elicit' && response.action !== 'accept') {
    return { answer: errorResult(`the operator did not give the value of ${describe(input)} (${response.action}); nothing was set`) };
  }
  const value = response.kind === 'elicit' ? response.content?.[FIELD] : undefined;
  // The executor checks the value against the tool's schema, as it checks one the model gave.
  if (typeof value === 'string') return { input: { ...input, [FIELD]: value } };
  return {
    answer: inputRequired({
      inputRequests: {
        [REQUEST_KEY]: inputRequired.elicit({
          message: `The value of ${describe(input)}. Aion stores it encrypted and never shows it again; the assistant does not see it.`,
          requestedSchema: {
            type: 'object',
            properties: { [FIELD]: { type: 'string', title: 'Secret value', maxLength: VALUE_MAX } },
            required: [FIELD],
          },
        }),
      },
    }),
  };
}

/** "secret DB_PASSWORD in shop/production", with what the call names. */
function describe(input: Record<string, unknown>): string {
  const name = typeof input.name === 'string' ? input.name : 'the secret';
  const where = [input.project, input.environment].filter((part): part is string => typeof part === 'string').join('/');
  return `secret ${name}${where ? ` in ${where}` : ''}`;
}
