// Calling tools the way every client does: POST /api/v1/assistant/tools/{name},
// as the demo operators (ada admin, olive operator, dev developer, vic viewer).
import { client, type Client } from './http.js';
import type { TestServer } from './server.js';

export interface ToolAnswer {
  status: number;
  is_error: boolean;
  /** The tool's result, or `{error}`; for a 4xx, the route's `{error}` body. */
  result: Record<string, unknown>;
}

export async function callTool(who: Client, name: string, input: Record<string, unknown>): Promise<ToolAnswer> {
  const answer = await who.post(`/api/v1/assistant/tools/${name}`, input);
  if (answer.status !== 200) return { status: answer.status, is_error: true, result: answer.body as Record<string, unknown> };
  const body = answer.body as { is_error: boolean; result: Record<string, unknown> };
  return { status: 200, is_error: body.is_error, result: body.result };
}

/** The result of a call that must succeed. */
export async function mustCall(who: Client, name: string, input: Record<string, unknown>): Promise<Record<string, unknown>> {
  const answer = await callTool(who, name, input);
  if (answer.is_error) throw new Error(`${name} failed (${answer.status}): ${JSON.stringify(answer.result)}`);
  return answer.result;
}

/** The error sentence of a call that must fail as a tool result (200, is_error). */
export async function mustFail(who: Client, name: string, input: Record<string, unknown>): Promise<string> {
  const answer = await callTool(who, name, input);
  if (answer.status !== 200 || !answer.is_error) {
    throw new Error(`${name} should have failed as a result, got ${answer.status}: ${JSON.stringify(answer.result)}`);
  }
  return String(answer.result.error);
}

export function demoClients(server: TestServer): Record<'ada' | 'olive' | 'dev' | 'vic', Client> {
  const as = (name: string) => {
    const token = server.demoTokens[name];
    if (!token) throw new Error(`no demo token for ${name}`);
    return client(server.url, token);
  };
  return { ada: as('ada'), olive: as('olive'), dev: as('dev'), vic: as('vic') };
}
