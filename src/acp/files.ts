// fs/read_text_file and fs/write_text_file of an agent. Its working folder
// stands for the thread's project: document `app.yaml` is `<cwd>/app.yaml`.
// The shared document reads as the operator's unsaved buffer, and a write
// there is one edit batch on it (never a save); another document of the
// project reads as its saved text when the operator may read it; nothing
// else exists, and nothing else is written — saving is the operator's.
import path from 'node:path';
import * as acp from '@agentclientprotocol/sdk';
import type { Operator } from '../access/operators.js';
import type { ConversationContexts } from '../conversation/context.js';
import type { Executor } from '../tools/executor.js';

export interface AgentFiles {
  threadId: string;
  project: string | null;
  operator: Operator;
  /** The agent's working folder. */
  work: string;
}

/** An error the agent reads: invalid params, with the sentence why. */
const refused = (sentence: string) => new acp.RequestError(-32602, sentence);

/** The document path a file path names, or null when it lies outside the working folder. */
export function documentPath(work: string, file: string): string | null {
  const relative = path.relative(work, path.resolve(work, file));
  return relative === '' || relative.startsWith('..') || path.isAbsolute(relative) ? null : relative.split(path.sep).join('/');
}

export async function readFile(
  deps: { contexts: ConversationContexts; executor: Executor },
  files: AgentFiles,
  request: acp.ReadTextFileRequest,
): Promise<acp.ReadTextFileResponse> {
  const document = documentPath(files.work, request.path);
  if (document === null) throw refused(`${request.path} is outside the working folder; only the project's documents can be read`);
  const context = await deps.contexts.read(files.threadId);
  let text: string;
  if (context.shared && context.document?.path === document) {
    text = context.document.text;
  } else {
    if (!files.project) throw refused(`no such document: ${document}; this thread has no project`);
    const outcome = await deps.executor.run(
      { operator: files.operator, via: 'assistant', threadId: files.threadId },
      'read_document',
      { project: files.project, path: document },
    );
    if (outcome.is_error) throw refused(String(outcome.result.error ?? `cannot read ${document}`));
    text = String(outcome.result.text);
  }
  return { content: linesOf(text, request.line ?? null, request.limit ?? null) };
}

export async function writeFile(
  contexts: ConversationContexts,
  files: AgentFiles,
  request: acp.WriteTextFileRequest,
): Promise<acp.WriteTextFileResponse> {
  const document = documentPath(files.work, request.path);
  const context = await contexts.read(files.threadId);
  if (document === null || !context.shared || context.document?.path !== document) {
    throw refused(`${request.path} is not the shared document: an agent writes only the operator's buffer, and saving is the operator's`);
  }
  const edited = await contexts.editText(files.threadId, () => request.content);
  if (!edited.document) throw refused('the operator closed the shared document');
  return {};
}

/** `line` is one-based; `limit` counts lines. */
function linesOf(text: string, line: number | null, limit: number | null): string {
  if (line === null && limit === null) return text;
  const lines = text.split('\n');
  const start = Math.max(0, (line ?? 1) - 1);
  return lines.slice(start, limit === null ? undefined : start + limit).join('\n');
}
