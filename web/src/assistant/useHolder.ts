// Who the panel's conversation is with: the open thread's holder, or the one
// a new conversation goes to (the built-in assistant when it is set up, else
// the first agent that can start, unless the operator picked one), and
// whether a message can be sent or a conversation opened.
import { useState } from 'react';
import type { Agent } from '../../../src/wire/agent';
import type { AssistantStatus } from '../../../src/wire/assistant-status';
import type { ThreadResponse } from '../../../src/wire/thread';
import { BUILT_IN } from './HolderPicker';

export function useHolder(status: AssistantStatus | undefined, agents: readonly Agent[], thread: ThreadResponse | null) {
  const [picked, setPicked] = useState<string | null>(null);
  // A new conversation goes to the built-in assistant when it is set up, else to the first agent that can start.
  const holderChoice = picked ?? (status?.configured === false ? (agents.find((a) => a.available)?.name ?? BUILT_IN) : BUILT_IN);
  const canOpen = holderChoice === BUILT_IN ? status?.configured === true : agents.some((a) => a.name === holderChoice && a.available);
  const agentTitle = (name: string) => agents.find((a) => a.name === name)?.title ?? name;
  const heldBy = thread ? thread.agent : holderChoice === BUILT_IN ? null : holderChoice;
  return {
    /** BUILT_IN or an agent's name: who a new conversation goes to. */
    holderChoice,
    setPicked,
    canOpen,
    agentTitle,
    heldBy,
    /** Who answers, as the thread says it. */
    holder: heldBy ? agentTitle(heldBy) : 'The assistant',
    canSend: thread ? thread.agent !== null || status?.configured === true : canOpen,
  };
}
