// The three tools of one conversation (spec/assistant-conversation-schemas.md):
// read what the operator's console shows, edit the document open in their
// editor, check it. They act on the shared buffer only — saving stays the
// operator's — so none of them waits for an accept.
import { and, eq } from 'drizzle-orm';
import { checkDocument, applyEdits } from '../documents/index.js';
import { diagnosticsFor } from '../domain/documents.js';
import { invalid, notFound } from '../errors.js';
import { threads } from '../store/schema.js';
import { withInput, type ToolContext } from '../tools/types.js';
import { CONVERSATION_OUTPUT_SCHEMAS } from './output-schemas.js';

const noInput = { type: 'object', properties: {}, required: [], additionalProperties: false } as const;

const NOTHING_OPEN = 'the operator has no document open in the editor; ask them to open one';
/** What a check of a conversation with no project says first: it cannot tell whether the document would deploy. */
const NOWHERE_TO_DEPLOY = {
  line: 1,
  column: 1,
  message: "this conversation has no project, so the project's schema and the environment's secrets were not checked and the document cannot deploy from here; open the conversation in a project to check it for an environment",
};

function conversationOf(ctx: ToolContext): string {
  if (!ctx.threadId) throw notFound('this tool belongs to a conversation');
  return ctx.threadId;
}

export const CONVERSATION_TOOLS = [
  withInput(noInput).define({
    name: 'assistant_context',
    description:
      "What the operator's console shows: the route, the concepts of that screen, and the open document with its unsaved text, selection and cursor (one-based), and the revision. `shared: false` means nothing was shared yet.",
    permission: null,
    tag: 'read',
    secretFields: [],
    scope: 'none',
    audience: 'conversation',
    output_schema: CONVERSATION_OUTPUT_SCHEMAS.assistant_context,
    run: async (ctx) => ({ ...(await ctx.services.contexts.read(conversationOf(ctx))) }),
  }),
  withInput({
    type: 'object',
    properties: {
      edits: {
        type: 'array',
        minItems: 1,
        description: 'The operations, applied in order, each against the text the previous one produced.',
        items: {
          type: 'object',
          properties: {
            old_string: {
              type: 'string',
              description: 'The exact bytes to replace. Must occur exactly once; quote more surrounding text to make an ambiguous match unique.',
            },
            new_string: { type: 'string', description: 'What replaces them.' },
          },
          required: ['old_string', 'new_string'],
          additionalProperties: false,
        },
      },
    },
    required: ['edits'],
    additionalProperties: false,
  }).define({
    name: 'assistant_document_edit',
    description:
      "Edit the document open in the operator's editor: all edits or none, each old_string matching exactly once. Changes the unsaved buffer only; saving stays the operator's. Returns the new revision.",
    permission: null,
    tag: 'read',
    secretFields: [],
    scope: 'none',
    audience: 'conversation',
    output_schema: CONVERSATION_OUTPUT_SCHEMAS.assistant_document_edit,
    editsSharedBuffer: true,
    run: async (ctx, input) => {
      const edited = await ctx.services.contexts.editText(conversationOf(ctx), (document) => {
        const outcome = applyEdits(document.text, input.edits);
        if (!outcome.ok) throw invalid(outcome.message);
        return outcome;
      });
      if (!edited.document) throw notFound(NOTHING_OPEN);
      return { applied: input.edits.length, revision: edited.revision, path: edited.document.path };
    },
  }),
  withInput(noInput).define({
    name: 'assistant_document_check',
    description:
      "Check the document open in the operator's editor, unsaved text included, for the conversation's environment: ok, and every diagnostic with one-based line and column.",
    permission: null,
    tag: 'read',
    secretFields: [],
    scope: 'none',
    audience: 'conversation',
    output_schema: CONVERSATION_OUTPUT_SCHEMAS.assistant_document_check,
    run: async (ctx) => {
      const threadId = conversationOf(ctx);
      const view = await ctx.services.contexts.read(threadId);
      if (!view.shared || !view.document) throw notFound(NOTHING_OPEN);
      const [thread] = await ctx.db
        .select({ project: threads.project, environment: threads.environment })
        .from(threads)
        .where(and(eq(threads.id, threadId), eq(threads.operatorId, ctx.operator.id)));
      const project = thread?.project ? await ctx.services.projects.find(ctx.operator, thread.project) : null;
      const environment = project?.environments.find((e) => e.name === thread?.environment);
      // Without a project nothing deploys: the schema and the secrets are unknown, and ok must not say otherwise.
      const diagnostics =
        project && environment
          ? await diagnosticsFor(ctx.db, project, environment, view.document.path, view.document.text)
          : [NOWHERE_TO_DEPLOY, ...checkDocument(view.document.text)];
      return { ok: diagnostics.length === 0, diagnostics };
    },
  }),
];
