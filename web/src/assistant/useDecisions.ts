// The proposals' decisions in the panel: accept or reject one, accept all
// shown, and where a refused decision (409) is said — on the proposal's card
// or at Accept all.
import { useMutation } from '@tanstack/react-query';
import { ApiError } from '../api/client';
import type { ProposalResponse } from '../../../src/wire/proposal';
import type { ThreadResponse } from '../../../src/wire/thread';
import { keepFocusAfterDecision } from './decisionFocus';
import type { DecisionRefusal } from './ThreadView';
import { acceptAll, decide } from './threads';

/** `showAnswer` keeps and shows the thread the server answered; `catchUp` reads the thread again after a 409. */
export function useDecisions(showAnswer: (answer: ThreadResponse) => void, catchUp: (error: Error) => Promise<void>) {
  const decideOne = useMutation({
    mutationFn: ({ threadId, proposal, decision }: { threadId: string; proposal: ProposalResponse; decision: 'accept' | 'reject' }) =>
      decide(threadId, proposal, decision),
    onSuccess: (answer, { proposal }) => {
      keepFocusAfterDecision(answer, proposal.id);
      showAnswer(answer);
    },
    onError: catchUp,
  });

  const decideAll = useMutation({
    mutationFn: ({ threadId, seen }: { threadId: string; seen: readonly string[] }) => acceptAll(threadId, seen),
    onSuccess: (answer) => {
      keepFocusAfterDecision(answer, null);
      showAnswer(answer);
    },
    onError: catchUp,
  });

  return { decideOne, decideAll, deciding: decideOne.isPending || decideAll.isPending };
}

/** Where a refused decision (409) is said: at the proposal's card (`at` its id) or at Accept all (`at` null); null when none was refused. */
export function refusedDecision(
  newest: Error | null,
  one: { error: Error | null; variables: { proposal: ProposalResponse } | undefined },
  all: Error | null,
): DecisionRefusal | null {
  if (!(newest instanceof ApiError) || newest.status !== 409) return null;
  if (newest === one.error && one.variables) return { at: one.variables.proposal.id, message: newest.message };
  if (newest === all) return { at: null, message: newest.message };
  return null;
}
