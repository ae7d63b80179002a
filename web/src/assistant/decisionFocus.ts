// Where the keyboard focus goes once proposals are decided. The decided
// card's buttons go (and Accept all with them, under two waiting), so rather
// than drop to the page the focus moves on: to the Accept of the next
// proposal waiting (after the decided one, else the first), else to the
// message box — unless the operator has put it somewhere else meanwhile.
import type { ThreadResponse } from '../../../src/wire/thread';
import { MESSAGE_BOX_ID } from './MessageBox';

export const proposalCardId = (proposal: string) => `proposal-card-${proposal}`;
export const acceptButtonId = (proposal: string) => `proposal-accept-${proposal}`;
export const ACCEPT_ALL_ID = 'accept-all';

/** `thread` as the decision left it; `decided`: the proposal decided, or null for Accept all. */
export function keepFocusAfterDecision(thread: ThreadResponse, decided: string | null): void {
  const active = document.activeElement;
  const dropped = active === null || active === document.body;
  const onDecided = active !== null && document.getElementById(decided ? proposalCardId(decided) : ACCEPT_ALL_ID)?.contains(active) === true;
  if (!dropped && !onDecided) return;
  const order = thread.proposals.map((p) => p.id);
  const from = decided ? order.indexOf(decided) : -1;
  const waiting = thread.proposals.filter((p) => p.status === 'pending');
  const candidates = [...waiting.filter((p) => order.indexOf(p.id) > from), ...waiting.filter((p) => order.indexOf(p.id) <= from)];
  // A proposal accepted where a second operator must approve still waits, without an Accept of its own.
  const accept = candidates.map((p) => document.getElementById(acceptButtonId(p.id))).find((button) => button !== null);
  (accept ?? document.getElementById(MESSAGE_BOX_ID))?.focus();
}
