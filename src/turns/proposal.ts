// A write a turn proposes, as it is made: stored with the turn's events at
// once, and with its answer as a pending proposal.
import type { ProposalRow } from '../tools/types.js';

export interface PendingProposal {
  /** Made here when the model must be told it before the answer is stored; else the store makes it. */
  id?: string;
  /** The model's tool-use id; an agent's proposal, which has none, gets one made of the answer's id. */
  toolUseId?: string;
  tool: string;
  input: Record<string, unknown>;
  project: string | null;
  environment: string;
  permission: string;
  title: string;
  rows: ProposalRow[];
}
