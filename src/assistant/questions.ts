// The operator answers (or declines) an ACP agent's question (DESIGN.md §6),
// on any server: the answer is checked against the question's form and
// stored while the question waits and its turn runs; the server running the
// turn hears of it. A viewer never answers for an operator: what the agent
// does with an answer may be an operator's decision.
import { and, eq, isNull } from 'drizzle-orm';
import type { Operator } from '../access/operators.js';
import type { ProjectDirectory } from '../domain/project-directory.js';
import { conflict, forbidden, invalid, notFound } from '../errors.js';
import type { Changes } from '../store/changes.js';
import type { Db } from '../store/db.js';
import { isUuid } from '../store/ids.js';
import { agentQuestions, turns } from '../store/schema.js';
import { questionTopic } from '../turns/topics.js';
import type { QuestionAnswer, QuestionContent, QuestionField } from '../wire/question.js';
import type { ThreadRecord } from './threads.js';

export interface QuestionDeps {
  db: Db;
  changes: Changes;
  projects: ProjectDirectory;
}

export async function answerQuestion(
  deps: QuestionDeps,
  operator: Operator,
  thread: ThreadRecord,
  questionId: string,
  answer: QuestionAnswer,
): Promise<{ id: string; outcome: 'accepted' | 'declined' }> {
  const role = thread.project ? (await deps.projects.find(operator, thread.project))?.role : null;
  if (role === 'viewer') {
    throw forbidden(`you are a viewer in ${thread.project}: a viewer does not answer an agent's questions for an operator; Stop the turn, or ask an operator of the project`);
  }
  const [question] = isUuid(questionId)
    ? await deps.db
        .select({ status: agentQuestions.status, fields: agentQuestions.fields, running: isNull(turns.endedAt) })
        .from(agentQuestions)
        .innerJoin(turns, eq(turns.id, agentQuestions.turnId))
        .where(and(eq(agentQuestions.id, questionId), eq(agentQuestions.threadId, thread.id)))
    : [];
  if (!question) throw notFound(`no such question in this thread: ${questionId}`);
  const closed = conflict('this question no longer waits: it was answered or declined, or it went with its turn');
  if (question.status !== 'pending' || !question.running) throw closed;
  const content = answer.action === 'accept' ? checkedContent(question.fields, answer.content) : null;
  const outcome = answer.action === 'accept' ? 'accepted' : 'declined';
  const answered = await deps.changes.transaction(deps.db, async (tx, touch) => {
    const rows = await tx
      .update(agentQuestions)
      .set({ status: outcome, answer: content })
      .where(and(eq(agentQuestions.id, questionId), eq(agentQuestions.status, 'pending')))
      .returning({ id: agentQuestions.id });
    if (rows.length > 0) touch(questionTopic(thread.id));
    return rows.length > 0;
  });
  if (!answered) throw closed;
  return { id: questionId, outcome };
}

/** The answer as the form allows it (422 with the field and why otherwise); fields left empty are left out. */
export function checkedContent(fields: readonly QuestionField[], content: QuestionContent): QuestionContent {
  const unknown = Object.keys(content).find((name) => !fields.some((f) => f.name === name));
  if (unknown !== undefined) throw invalid(`the question has no field ${unknown}`);
  const checked: QuestionContent = {};
  for (const field of fields) {
    const value = content[field.name];
    if (value === undefined || value === '') {
      if (field.required) throw invalid(`${field.title} is required`);
      continue;
    }
    const why = fieldRefusal(field, value);
    if (why) throw invalid(`${field.title} ${why}`);
    checked[field.name] = value;
  }
  return checked;
}

function fieldRefusal(field: QuestionField, value: QuestionContent[string]): string | null {
  const within = (n: number, what: string) =>
    field.min !== null && n < field.min ? `must be at least ${field.min}${what}` : field.max !== null && n > field.max ? `must be at most ${field.max}${what}` : null;
  const offered = (v: string) => field.options?.some((o) => o.value === v) ?? false;
  switch (field.type) {
    case 'string':
      return typeof value !== 'string' ? 'must be text' : within(value.length, ' characters');
    case 'number':
      return typeof value !== 'number' ? 'must be a number' : within(value, '');
    case 'integer':
      return typeof value !== 'number' || !Number.isInteger(value) ? 'must be a whole number' : within(value, '');
    case 'boolean':
      return typeof value !== 'boolean' ? 'must be yes or no' : null;
    case 'choice':
      return typeof value !== 'string' || !offered(value) ? `must be one of ${field.options?.map((o) => o.value).join(', ')}` : null;
    case 'choices':
      if (!Array.isArray(value) || !value.every(offered)) return `must be some of ${field.options?.map((o) => o.value).join(', ')}`;
      return within(value.length, ' choices');
  }
}
