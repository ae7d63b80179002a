// A mock of the Gemini API (generativelanguage, v1beta) on loopback, for Gemini
// CLI (`gemini --acp`) pointed at it with GOOGLE_GEMINI_BASE_URL. The chat's
// own turns — `models/M:streamGenerateContent?alt=sse` with the session's
// tool declarations — each take the next step of the script; the CLI's side
// calls (the model router's classifier, the next-speaker and loop checks,
// summaries: non-streaming `generateContent`, mostly in JSON mode) are
// answered on their own and consume no step. countTokens, embeddings and the
// model listing get plausible answers; anything else is a 404 in the API's
// error shape, recorded in `unhandled`.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { listenOnLoopback, Script, type AnsweredStep, type MockModel } from './script.js';

/** The Gemini mock: what every vendor's mock offers, and what it answered besides the chat's turns. */
export interface MockGemini extends MockModel {
  /** The bodies of the side calls (router, checks, summaries), answered without consuming a step. */
  side: unknown[];
  /** `METHOD path` of each request it had no route for (answered 404). */
  unhandled: string[];
}

/** Gemini CLI's names for its own tools (packages/core tools/definitions). */
const OWN_TOOLS = { shell: 'run_shell_command', write: 'write_file', fetch: 'web_fetch' } as const;
/** Aion's MCP server as Aion names it in session/new; Gemini CLI names its tools `mcp_<server>_<tool>`. */
const AION_SERVER = 'aion';
const MODEL = 'gemini-2.5-flash';

type Json = Record<string, unknown>;
interface FunctionDeclaration {
  name: string;
  parameters?: Json;
  parametersJsonSchema?: Json;
}
type Part = { text: string } | { functionCall: { name: string; args: Record<string, unknown> } };

export async function startMockGemini(): Promise<MockGemini> {
  const script = new Script();
  const requests: unknown[] = [];
  const side: unknown[] = [];
  const unhandled: string[] = [];

  const server = createServer((req, res) => {
    void handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) send(res, 500, apiError(500, `mock-gemini: ${(error as Error).message}`));
      else res.end();
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://mock');
    const raw = await readBody(req);
    // `/v1beta/models/gemini-2.5-flash:streamGenerateContent` → model and method.
    const route = /^\/(?:v1|v1beta|v1alpha)\/models(?:\/([^/:]+))?(?::([A-Za-z]+))?$/.exec(url.pathname);
    if (!route) {
      unhandled.push(`${req.method} ${url.pathname}`);
      return send(res, 404, apiError(404, `mock-gemini has no route ${req.method} ${url.pathname}`));
    }
    const [, model = '', method = ''] = route;
    if (req.method === 'GET') {
      if (!model) return send(res, 200, { models: [modelInfo(MODEL)] });
      return send(res, 200, modelInfo(model));
    }
    const body = raw ? (JSON.parse(raw) as Json) : {};
    switch (method) {
      case 'countTokens':
        return send(res, 200, { totalTokens: Math.ceil(raw.length / 4) });
      case 'embedContent':
        return send(res, 200, { embedding: { values: [0, 0, 0] } });
      case 'batchEmbedContents':
        return send(res, 200, { embeddings: ((body.requests as unknown[]) ?? []).map(() => ({ values: [0, 0, 0] })) });
      case 'generateContent':
      case 'streamGenerateContent': {
        const streaming = method === 'streamGenerateContent';
        const config = (body.generationConfig ?? {}) as Json;
        const schema = (config.responseJsonSchema ?? config.responseSchema) as Json | undefined;
        const jsonMode = config.responseMimeType === 'application/json' || schema !== undefined;
        let parts: Part[];
        if (streaming && !jsonMode) {
          requests.push(body);
          parts = [partOf(await script.take(), declarationsOf(body))];
        } else {
          side.push(body);
          parts = [{ text: jsonMode ? JSON.stringify(valueOf(schema ?? { type: 'object' })) : 'mock summary.' }];
        }
        const answer = {
          candidates: [{ content: { role: 'model', parts }, finishReason: 'STOP', index: 0 }],
          usageMetadata: { promptTokenCount: Math.ceil(raw.length / 4), candidatesTokenCount: 8, totalTokenCount: Math.ceil(raw.length / 4) + 8 },
          modelVersion: model,
        };
        if (!streaming) return send(res, 200, answer);
        res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
        res.end(`data: ${JSON.stringify(answer)}\r\n\r\n`);
        return;
      }
      default:
        unhandled.push(`${req.method} ${url.pathname}`);
        return send(res, 404, apiError(404, `mock-gemini has no method ${method}`));
    }
  }

  return { ...(await listenOnLoopback(server)), requests, side, unhandled, script: (next) => script.replace(next) };
}

/** One step as the model's answer, in the agent's own names for the tools it declared. */
function partOf(step: AnsweredStep, declared: FunctionDeclaration[]): Part {
  if ('say' in step) return { text: step.say };
  if ('aion' in step) {
    const name = aionToolName(step.aion, declared);
    if (!name) {
      const names = declared.map((d) => d.name).join(', ') || 'none';
      return { text: `mock-gemini: the request declares no tool for Aion's ${step.aion} (it declares ${names}).` };
    }
    return { functionCall: { name, args: step.input } };
  }
  // The agent's own tools are called by their own names even when they were turned off (and so not declared):
  // the agent must then refuse them itself.
  if ('shell' in step) return { functionCall: { name: OWN_TOOLS.shell, args: { command: step.shell, description: 'mock-gemini shell step' } } };
  if ('write' in step) return { functionCall: { name: OWN_TOOLS.write, args: { file_path: step.write.path, content: step.write.content } } };
  const fetch = declared.find((d) => d.name === OWN_TOOLS.fetch);
  const takesUrl = Object.hasOwn(propertiesOf(fetch), 'url');
  return { functionCall: { name: OWN_TOOLS.fetch, args: takesUrl ? { url: step.fetch } : { prompt: `Fetch ${step.fetch} and summarize it.` } } };
}

/** The declared name of Aion's tool: `mcp_aion_<tool>` (Gemini CLI's form), else the bare name. */
function aionToolName(tool: string, declared: FunctionDeclaration[]): string | null {
  const names = declared.map((d) => d.name);
  const candidates = [`mcp_${AION_SERVER}_${tool}`, `${AION_SERVER}__${tool}`, `${AION_SERVER}_${tool}`, tool];
  return candidates.find((c) => names.includes(c)) ?? null;
}

function declarationsOf(body: Json): FunctionDeclaration[] {
  const tools = Array.isArray(body.tools) ? (body.tools as Json[]) : [];
  return tools.flatMap((t) => (Array.isArray(t.functionDeclarations) ? (t.functionDeclarations as FunctionDeclaration[]) : []));
}

function propertiesOf(declaration: FunctionDeclaration | undefined): Json {
  const schema = declaration?.parametersJsonSchema ?? declaration?.parameters ?? {};
  return (schema.properties ?? {}) as Json;
}

/** Preferred answers of the CLI's JSON side calls: the router picks flash, the next speaker is the user. */
const PREFERRED_ENUM_VALUES = ['user', 'flash'];

/** A value that fits a response schema (OpenAPI-style `Type.OBJECT` or JSON Schema `object`). */
function valueOf(schema: Json): unknown {
  const type = String(schema.type ?? 'object').toLowerCase();
  if (Array.isArray(schema.enum) && schema.enum.length > 0) {
    return schema.enum.find((v) => PREFERRED_ENUM_VALUES.includes(String(v))) ?? schema.enum[0];
  }
  switch (type) {
    case 'string':
      return 'mock';
    case 'number':
    case 'integer': {
      // The low end of the range: the router's score is 1-100, the loop check's confidence 0.0-1.0 (no loop).
      if (typeof schema.minimum === 'number') return schema.minimum;
      const range = /(\d+(?:\.\d+)?)\s*(?:-|and|to)\s*\d/.exec(String(schema.description ?? ''));
      return range ? Number(range[1]) : 0;
    }
    case 'boolean':
      return false;
    case 'array':
      return [];
    default: {
      const properties = (schema.properties ?? {}) as Record<string, Json>;
      return Object.fromEntries(Object.entries(properties).map(([key, value]) => [key, valueOf(value)]));
    }
  }
}

function modelInfo(model: string): Json {
  return {
    name: `models/${model}`,
    version: '001',
    displayName: model,
    inputTokenLimit: 1_048_576,
    outputTokenLimit: 65_536,
    supportedGenerationMethods: ['generateContent', 'countTokens'],
  };
}

function apiError(code: number, message: string): Json {
  return { error: { code, message, status: code === 404 ? 'NOT_FOUND' : 'INTERNAL' } };
}

function send(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}
