// An agent's question to the operator (ACP `elicitation/create`, form mode):
// asked only inside a running turn, stored (so the operator may answer on any
// server), shown as a turn event, and waited for until the operator answers or
// declines, or the turn ends (Stop, its timeout): then it is cancelled. What
// Aion cannot show as a form (a URL, a field of an unknown kind) is declined.
import type * as acp from '@agentclientprotocol/sdk';
import { and, eq } from 'drizzle-orm';
import { redactCredentials } from '../assistant/redaction.js';
import type { Changes } from '../store/changes.js';
import type { Db } from '../store/db.js';
import { agentQuestions } from '../store/schema.js';
import type { RunningTurn } from '../turns/running-turn.js';
import { questionTopic } from '../turns/topics.js';
import type { QuestionContent, QuestionField } from '../wire/question.js';

const MAX_FIELDS = 20;
const MAX_OPTIONS = 100;
const MAX_MESSAGE_CHARS = 2_000;
const MAX_LABEL_CHARS = 500;
/** How often the server that asked reads the question again, whether or not a notice came. */
const POLL_MS = 2_000;

const label = (text: string | null | undefined) => (text ? redactCredentials(text.slice(0, MAX_LABEL_CHARS)) : null);
const bound = (value: number | null | undefined) => (typeof value === 'number' && Number.isFinite(value) ? value : null);

/** One property of the requested schema as a field, or null when it is of a kind the console does not render. */
function fieldOf(name: string, schema: acp.ElicitationPropertySchema, required: boolean): QuestionField | null {
  const base = { name, title: label(typeof schema.title === 'string' ? schema.title : null) ?? name, description: label(typeof schema.description === 'string' ? schema.description : null), required };
  switch (schema.type) {
    case 'string': {
      const s = schema as acp.StringPropertySchema;
      const options = s.oneOf?.map((o) => ({ value: o.const, title: label(o.title) ?? o.const })) ?? s.enum?.map((v) => ({ value: v, title: v })) ?? null;
      if (options) return { ...base, type: 'choice', options: options.slice(0, MAX_OPTIONS), min: null, max: null, default: s.default ?? null };
      return { ...base, type: 'string', options: null, min: bound(s.minLength), max: bound(s.maxLength), default: s.default ?? null };
    }
    case 'number':
    case 'integer': {
      const n = schema as acp.NumberPropertySchema;
      return { ...base, type: schema.type, options: null, min: bound(n.minimum), max: bound(n.maximum), default: n.default ?? null };
    }
    case 'boolean':
      return { ...base, type: 'boolean', options: null, min: null, max: null, default: (schema as acp.BooleanPropertySchema).default ?? null };
    case 'array': {
      const m = schema as acp.MultiSelectPropertySchema;
      const items = m.items as { enum?: unknown; anyOf?: unknown };
      const options = Array.isArray(items.anyOf)
        ? (items.anyOf as acp.EnumOption[]).map((o) => ({ value: o.const, title: label(o.title) ?? o.const }))
        : Array.isArray(items.enum)
          ? (items.enum as string[]).map((v) => ({ value: v, title: v }))
          : null;
      if (!options) return null;
      return { ...base, type: 'choices', options: options.slice(0, MAX_OPTIONS), min: bound(m.minItems), max: bound(m.maxItems), default: m.default ?? null };
    }
    default:
      return null;
  }
}

/** The form's fields, or null when one cannot be shown. */
export function fieldsOf(schema: acp.ElicitationSchema): QuestionField[] | null {
  const required = new Set(schema.required ?? []);
  const entries = Object.entries(schema.properties ?? {});
  if (entries.length > MAX_FIELDS) return null;
  const fields = entries.map(([name, property]) => fieldOf(name.slice(0, MAX_LABEL_CHARS), property, required.has(name)));
  return fields.every((f) => f !== null) ? fields : null;
}

export interface QuestionStore {
  db: Db;
  changes: Changes;
}

/** Asks the operator, and answers the agent with what they said: accept (with the content), decline, or cancel. */
export async function askOperator(store: QuestionStore, running: RunningTurn, request: acp.CreateElicitationRequest): Promise<acp.CreateElicitationResponse> {
  if (request.mode !== 'form' || !('requestedSchema' in request) || running.cancelled) return { action: running.cancelled ? 'cancel' : 'decline' };
  const fields = fieldsOf(request.requestedSchema as acp.ElicitationSchema);
  if (!fields) return { action: 'decline' };
  const message = redactCredentials(request.message.slice(0, MAX_MESSAGE_CHARS));
  const [row] = await store.db.insert(agentQuestions).values({ turnId: running.id, threadId: running.threadId, message, fields }).returning({ id: agentQuestions.id });
  if (!row) throw new Error('question insert returned no row');
  running.emit({ type: 'question', question: { id: row.id, message, fields } });
  const answered = await waitForAnswer(store, running, row.id);
  running.emit({ type: 'question_closed', id: row.id, outcome: answered.status });
  if (answered.status === 'accepted') return { action: 'accept', content: answered.answer ?? {} };
  return { action: answered.status === 'declined' ? 'decline' : 'cancel' };
}

type Answered = { status: 'accepted'; answer: QuestionContent | null } | { status: 'declined' | 'cancelled'; answer: null };

async function waitForAnswer(store: QuestionStore, running: RunningTurn, id: string): Promise<Answered> {
  const read = async () => {
    const [row] = await store.db.select({ status: agentQuestions.status, answer: agentQuestions.answer }).from(agentQuestions).where(eq(agentQuestions.id, id));
    return row ?? { status: 'cancelled' as const, answer: null };
  };
  while (!running.cancelled) {
    const row = await store.changes.waitFor([questionTopic(running.threadId)], read, (r) => r.status !== 'pending', POLL_MS, running.signal);
    if (row.status === 'accepted') return { status: 'accepted', answer: row.answer };
    if (row.status !== 'pending') return { status: row.status, answer: null };
  }
  // The turn ended (Stop, its timeout): the question goes with it, unless an answer came first.
  const [cancelled] = await store.db
    .update(agentQuestions)
    .set({ status: 'cancelled' })
    .where(and(eq(agentQuestions.id, id), eq(agentQuestions.status, 'pending')))
    .returning({ id: agentQuestions.id });
  if (cancelled) return { status: 'cancelled', answer: null };
  const row = await read();
  return row.status === 'accepted' ? { status: 'accepted', answer: row.answer } : { status: row.status === 'declined' ? 'declined' : 'cancelled', answer: null };
}
