// The assistant as the routes see it: status, threads, turns, decisions.
import type { Operator } from '../access/operators.js';
import type { Config } from '../config.js';
import { AppError } from '../errors.js';
import { perform, type Actor } from '../domain/actions.js';
import type { BeforeWrite, Restrictions, ToolCallResponse, ToolDescriptor } from '../tools/executor.js';
import { agentCall, agentTools } from './agent.js';
import { chooseAgentOption } from './agent-options.js';
import { answerQuestion } from './questions.js';
import type { AssistantDeps } from './deps.js';
import { acceptAll, acceptProposal, rejectProposal } from './proposals.js';
import { runTurn } from './turn.js';
import { givenTitle } from './thread-title.js';
import { deleteThread, describeThread, findThread, listThreads, openThread, renameThread, type OpenThread, type ThreadPage } from './threads.js';
import { threadUsage, type UsageTotals } from './usage.js';
import { threadChangeTopic } from '../turns/topics.js';
import type { AgentChoice } from '../wire/agent-options.js';
import type { QuestionAnswer } from '../wire/question.js';
import type { ThreadResponse } from '../wire/thread.js';

export interface AssistantStatus {
  configured: boolean;
  model: 'anthropic' | 'fake' | null;
  sentence: string;
}

/** The sentence the panel prints when no model is configured. */
export function notConfiguredSentence(config: Pick<Config, 'model'>): string {
  return config.model === 'anthropic'
    ? 'The assistant is set to Claude but has no key: set ANTHROPIC_API_KEY, or AION_MODEL=fake to try it with the fake model.'
    : 'No model is configured: set ANTHROPIC_API_KEY to use Claude, or AION_MODEL=fake to try the assistant with the fake model.';
}

export class Assistant {
  constructor(private readonly deps: AssistantDeps) {}

  status(): AssistantStatus {
    const provider = this.deps.provider;
    return provider
      ? { configured: true, model: provider.name, sentence: '' }
      : { configured: false, model: null, sentence: this.deps.notConfigured };
  }

  async open(operator: Operator, body: OpenThread): Promise<ThreadResponse> {
    if (body.agent) await this.deps.agents.check(body.agent);
    return this.view(operator, (await openThread(this.deps.db, this.deps.projects, operator, body)).id);
  }

  list(operator: Operator, page: ThreadPage): Promise<ThreadResponse[]> {
    return listThreads(this.deps.db, this.deps.projects, operator, page);
  }

  async view(operator: Operator, threadId: string): Promise<ThreadResponse> {
    return describeThread(this.deps.db, this.deps.projects, operator, threadId);
  }

  /** Renames the operator's thread; like opening one, it is not an action on a project, so it is not audited. */
  async rename(operator: Operator, threadId: string, title: string): Promise<ThreadResponse> {
    const given = givenTitle(title);
    const thread = await findThread(this.deps.db, operator, threadId);
    await this.deps.changes.transaction(this.deps.db, (tx, touch) => renameThread(tx, touch, thread, given));
    return describeThread(this.deps.db, this.deps.projects, operator, thread.id);
  }

  async remove(actor: Actor, threadId: string): Promise<void> {
    const thread = await findThread(this.deps.db, actor.operator, threadId);
    let withdrew = 0;
    await perform(this.deps, actor, {
      name: 'thread:delete',
      project: thread.project,
      environment: thread.environment || null,
      threadId: thread.id,
      input: { id: thread.id },
      refusal: null,
      run: async (tx, touch) => {
        // What the conversation asked for goes with it.
        withdrew = await this.deps.changeRequests.withdrawWaiting(tx, touch, { thread: thread.id }, actor, 'its thread was deleted');
        await deleteThread(tx, touch, thread);
      },
    });
    this.deps.changeRequests.withdrawn(withdrew);
    // Its agent, if it runs here, is stopped before the answer; on another server, on hearing of the delete.
    await this.deps.agents.forget(thread.id);
  }

  /** The operator chooses among the thread's agent options (a mode, an option's value); applied at the next turn's start. */
  async chooseAgentOption(operator: Operator, threadId: string, choice: AgentChoice): Promise<ThreadResponse> {
    const thread = await findThread(this.deps.db, operator, threadId);
    await this.deps.changes.transaction(this.deps.db, async (tx, touch) => {
      await chooseAgentOption(tx, thread, choice);
      touch(threadChangeTopic(thread.operatorId, { thread: thread.id, what: 'updated' }));
    });
    return describeThread(this.deps.db, this.deps.projects, operator, thread.id);
  }

  /** The operator answers or declines the question the thread's agent asks in its running turn. */
  async answerQuestion(operator: Operator, threadId: string, questionId: string, answer: QuestionAnswer): Promise<{ id: string; outcome: 'accepted' | 'declined' }> {
    const thread = await findThread(this.deps.db, operator, threadId);
    return answerQuestion(this.deps, operator, thread, questionId, answer);
  }

  /** What the model calls of the operator's thread cost, failed turns included. */
  async usage(operator: Operator, threadId: string): Promise<UsageTotals> {
    const thread = await findThread(this.deps.db, operator, threadId);
    return threadUsage(this.deps.db, thread.id, thread.agent);
  }

  /** Cancels the thread's running turn, wherever it runs; false when none does. */
  async cancel(operator: Operator, threadId: string): Promise<boolean> {
    const thread = await findThread(this.deps.db, operator, threadId);
    return this.deps.turns.cancel(thread.id);
  }

  /** The configured agents, and whether each can start. */
  agents() {
    return this.deps.agents.list();
  }

  async send(operator: Operator, threadId: string, text: string): Promise<ThreadResponse> {
    const started = performance.now();
    let outcome = 'ok';
    try {
      await runTurn(this.deps, operator, threadId, text);
    } catch (error) {
      outcome = error instanceof AppError ? error.kind : 'error';
      throw error;
    } finally {
      this.deps.metrics.turnEnded(this.deps.provider?.name ?? 'none', outcome, (performance.now() - started) / 1000);
    }
    return describeThread(this.deps.db, this.deps.projects, operator, threadId, { justEnded: true });
  }

  // Deciding changes proposals only, never the thread's own row: it is described as found.
  /** `seen`: the fingerprint the operator accepted; `beforeWrite`: what the request asks first in the write's transaction (Invocation.beforeWrite). */
  async accept(operator: Operator, threadId: string, proposalId: string, decision: { seen?: string | undefined; beforeWrite?: BeforeWrite | undefined } = {}): Promise<ThreadResponse> {
    const thread = await findThread(this.deps.db, operator, threadId);
    await acceptProposal(this.deps, operator, thread, proposalId, decision);
    return describeThread(this.deps.db, this.deps.projects, operator, thread.id);
  }

  async reject(actor: Actor, threadId: string, proposalId: string): Promise<ThreadResponse> {
    const thread = await findThread(this.deps.db, actor.operator, threadId);
    await rejectProposal(this.deps, actor, thread, proposalId);
    return describeThread(this.deps.db, this.deps.projects, actor.operator, thread.id);
  }

  /** The tools an agent attached with this thread's session credential sees. */
  agentTools(operator: Operator, threadId: string, restrictions: Restrictions): Promise<ToolDescriptor[]> {
    return agentTools(this.deps, operator, threadId, restrictions);
  }

  /** A tool call of an attached agent: writes become proposals on the thread. */
  agentCall(operator: Operator, threadId: string, name: string, input: unknown, restrictions: Restrictions): Promise<ToolCallResponse> {
    return agentCall(this.deps, operator, threadId, name, input, restrictions);
  }

  async acceptAll(operator: Operator, threadId: string, decision: { seen?: readonly string[] | undefined; beforeWrite?: BeforeWrite | undefined } = {}): Promise<ThreadResponse> {
    const thread = await findThread(this.deps.db, operator, threadId);
    await acceptAll(this.deps, operator, thread, decision);
    return describeThread(this.deps.db, this.deps.projects, operator, thread.id);
  }
}
