// What /metrics says happened, beyond HTTP (http/metrics.ts): tool runs,
// proposal decisions, turns, deployments. Every label is bounded: tool names
// come from the catalogue, vias and outcomes are enums, models are the
// configured provider, agents are the configured ones, environments are names (the same few in every project),
// never a project, an operator or an id.
import { collectDefaultMetrics, Counter, Histogram, Registry } from 'prom-client';
import type { ModelUsage } from './assistant/providers/types.js';
import { CHANGE_REQUEST_OPENED, type ToolRun } from './tools/executor.js';
import type { ChangeRequestStatus } from './wire/change-request-status.js';

/** The token counts an agent reported of a turn; undefined where it said nothing. */
export interface AgentReportedTokens {
  inputTokens?: number;
  outputTokens?: number;
  thoughtTokens?: number;
  cacheReadTokens?: number;
  cacheWriteTokens?: number;
}

export type ProposalDecision = 'accepted' | 'failed' | 'rejected';

/** What happens to a change request: opened, then one of its decided statuses. */
export type ChangeRequestEvent = 'opened' | Exclude<ChangeRequestStatus, 'pending'>;

/** The tools whose successful run is a deployment of that kind. */
const DEPLOYING = new Map<string, 'deploy' | 'rollback'>([
  ['deploy', 'deploy'],
  ['rollback', 'rollback'],
]);

export class Metrics {
  readonly registry = new Registry();
  private readonly toolRuns = new Counter({
    name: 'aion_tool_runs_total',
    help: 'Tool runs by tool, outcome (ok, error, refused) and via',
    labelNames: ['tool', 'outcome', 'via'],
    registers: [this.registry],
  });
  private readonly toolDurations = new Histogram({
    name: 'aion_tool_run_duration_seconds',
    help: 'Tool run durations by tool, from the call to its audit entry',
    labelNames: ['tool'],
    buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1],
    registers: [this.registry],
  });
  private readonly proposals = new Counter({
    name: 'aion_proposals_decided_total',
    help: 'Proposals decided, by outcome (accepted, failed: accepted but the tool failed, rejected)',
    labelNames: ['outcome'],
    registers: [this.registry],
  });
  private readonly turns = new Histogram({
    name: 'aion_turn_duration_seconds',
    help: 'Assistant turns by model and outcome (ok, or the kind of failure), with their durations',
    labelNames: ['model', 'outcome'],
    buckets: [0.01, 0.05, 0.25, 1, 2.5, 5, 10, 30, 60, 120],
    registers: [this.registry],
  });
  private readonly eventWrites = new Histogram({
    name: 'aion_turn_event_writes_seconds',
    help: "Time each turn spent writing its events to the store (its batches during the turn and its tail with the answer)",
    buckets: [0.0005, 0.001, 0.002, 0.005, 0.01, 0.05, 0.25],
    registers: [this.registry],
  });
  private readonly deployments = new Counter({
    name: 'aion_deployments_total',
    help: 'Deployments by environment name and kind (deploy, rollback)',
    labelNames: ['environment', 'kind'],
    registers: [this.registry],
  });

  private readonly changeRequests = new Counter({
    name: 'aion_change_requests_total',
    help: 'Change requests by event: opened, approved, failed (approved, the change failed), declined, withdrawn, expired, stale',
    labelNames: ['event'],
    registers: [this.registry],
  });
  private readonly decisionTimes = new Histogram({
    name: 'aion_change_request_decision_seconds',
    help: 'Time from opening a change request to its decision, by outcome (approved, failed, declined)',
    labelNames: ['outcome'],
    buckets: [60, 300, 900, 1800, 3600, 4 * 3600, 12 * 3600, 24 * 3600, 72 * 3600],
    registers: [this.registry],
  });

  private readonly modelCalls = new Counter({
    name: 'aion_model_calls_total',
    help: 'Model calls answered, by model',
    labelNames: ['model'],
    registers: [this.registry],
  });
  private readonly modelTokens = new Counter({
    name: 'aion_model_tokens_total',
    help: 'Tokens of model calls as the API reported them, by model and kind (input, output, cache_write, cache_read)',
    labelNames: ['model', 'kind'],
    registers: [this.registry],
  });

  private readonly agentTokens = new Counter({
    name: 'aion_agent_tokens_total',
    help: 'Tokens an ACP agent reported its own model used, by agent and kind (input, output, thought, cache_read, cache_write); a kind it never reports never appears',
    labelNames: ['agent', 'kind'],
    registers: [this.registry],
  });
  private readonly agentCost = new Counter({
    name: 'aion_agent_cost_total',
    help: 'What ACP agents reported their turns cost, by agent and currency',
    labelNames: ['agent', 'currency'],
    registers: [this.registry],
  });

  constructor() {
    collectDefaultMetrics({ register: this.registry });
  }

  toolRan(run: ToolRun): void {
    this.toolRuns.inc({ tool: run.tool, outcome: run.outcome, via: run.via });
    this.toolDurations.observe({ tool: run.tool }, run.seconds);
    const kind = DEPLOYING.get(run.tool);
    if (kind && run.outcome === 'ok' && run.environment) this.deployments.inc({ environment: run.environment, kind });
    if (run.tool === CHANGE_REQUEST_OPENED && run.outcome === 'ok') this.changeRequest('opened');
  }

  /** A change request opened or decided; a decision by a person brings its time since opening. */
  changeRequest(event: ChangeRequestEvent, secondsToDecision?: number): void {
    this.changeRequests.inc({ event });
    if (secondsToDecision !== undefined) this.decisionTimes.observe({ outcome: event }, secondsToDecision);
  }

  proposalDecided(outcome: ProposalDecision): void {
    this.proposals.inc({ outcome });
  }

  turnEnded(model: string, outcome: string, seconds: number): void {
    this.turns.observe({ model, outcome }, seconds);
  }

  turnEventsWritten(seconds: number): void {
    this.eventWrites.observe(seconds);
  }

  /** What an agent reported of a turn: only what it reported is counted. */
  agentReported(agent: string, tokens: AgentReportedTokens, cost: { amount: number; currency: string } | null): void {
    for (const [kind, value] of [
      ['input', tokens.inputTokens],
      ['output', tokens.outputTokens],
      ['thought', tokens.thoughtTokens],
      ['cache_read', tokens.cacheReadTokens],
      ['cache_write', tokens.cacheWriteTokens],
    ] as const) {
      if (value !== undefined) this.agentTokens.inc({ agent, kind }, value);
    }
    if (cost) this.agentCost.inc({ agent, currency: cost.currency }, cost.amount);
  }

  modelCalled(usage: ModelUsage): void {
    const { model } = usage;
    this.modelCalls.inc({ model });
    this.modelTokens.inc({ model, kind: 'input' }, usage.input_tokens);
    this.modelTokens.inc({ model, kind: 'output' }, usage.output_tokens);
    this.modelTokens.inc({ model, kind: 'cache_write' }, usage.cache_creation_input_tokens);
    this.modelTokens.inc({ model, kind: 'cache_read' }, usage.cache_read_input_tokens);
  }
}
