// The spec's types by their own names: each schema the seed names
// (spec/assistant-and-tools.md, "Types") is registered with `addSchema`
// under that name as its `$id`, and the OpenAPI document refers to it there
// (`components.schemas.ThreadResponse`, `$ref`s) instead of writing it out
// inline on every route. The routes keep the very same objects inline, so
// their request and reply types still come from them; the document's
// transform puts a `$ref` wherever one of these objects appears.
import { assistantStatusSchema } from '../wire/assistant-status.js';
import { threadMessageSchema } from '../wire/message.js';
import { proposalResponseSchema, proposalRowSchema } from '../wire/proposal.js';
import { threadResponseSchema } from '../wire/thread.js';
import { toolDescriptorSchema } from '../wire/tool-descriptor.js';
import { openThreadBodySchema, postMessageBodySchema } from './routes/assistant.js';
import { toolCallResponseSchema, toolsResponseSchema } from './routes/tools.js';

/** Each schema the seed names, by that name. */
const SEED_TYPES = new Map<object, string>([
  [assistantStatusSchema, 'AssistantStatusResponse'],
  [threadResponseSchema, 'ThreadResponse'],
  [openThreadBodySchema, 'OpenThreadBody'],
  [postMessageBodySchema, 'PostMessageBody'],
  [toolsResponseSchema, 'ToolsResponse'],
  [toolCallResponseSchema, 'ToolCallResponse'],
  [proposalResponseSchema, 'ProposalResponse'],
  [threadMessageSchema, 'ThreadMessage'],
  [toolDescriptorSchema, 'ToolDescriptor'],
  [proposalRowSchema, 'ProposalRow'],
]);

/** The seed's type names, as the OpenAPI components carry them. */
export const SEED_TYPE_NAMES: readonly string[] = [...SEED_TYPES.values()];

/** `node` with every seed-named schema in it (but `self`) replaced by a `$ref` to its component. */
export function referringToSeedTypes<T>(node: T, self?: object): T {
  if (Array.isArray(node)) return node.map((item: unknown) => referringToSeedTypes(item)) as T;
  if (node === null || typeof node !== 'object') return node;
  const name = node !== self ? SEED_TYPES.get(node) : undefined;
  if (name) return { $ref: `${name}#` } as T;
  return Object.fromEntries(Object.entries(node).map(([key, value]) => [key, referringToSeedTypes(value)])) as T;
}

/** The schemas to register (`addSchema`): each seed type under its name, naming the seed types inside it by `$ref`. */
export const seedComponents: Record<string, unknown>[] = [...SEED_TYPES].map(([schema, name]) => ({
  $id: name,
  ...referringToSeedTypes(schema, schema),
}));
