// Under the thread bar: who holds the open conversation and whose permissions
// what is accepted in it runs with, its usage, and the agent's options (an
// agent-held thread) or the way to connect one (a built-in thread).
import type { AssistantStatus } from '../../../src/wire/assistant-status';
import type { ThreadResponse } from '../../../src/wire/thread';
import { AgentOptionsBar } from './AgentOptionsBar';
import { ConnectAgent } from './ConnectAgent';
import { builtInTitle } from './HolderPicker';
import { UsageNote } from './UsageNote';

interface Props {
  thread: ThreadResponse;
  status: AssistantStatus | undefined;
  agentTitle: (name: string) => string;
}

export function ThreadHolder({ thread, status, agentTitle }: Props) {
  return (
    <div className="thread-holder small">
      <span className={thread.agent ? 'holder agent' : 'holder'}>
        with <strong>{thread.agent ? agentTitle(thread.agent) : builtInTitle(status)}</strong>
        {/* Not a second role chip: whose permissions what is accepted here runs with. */}
        <span title="What you accept here runs with your permissions in this thread's project">, you as {thread.role}</span>
      </span>
      <UsageNote threadId={thread.id} />
      {thread.agent && <AgentOptionsBar thread={thread} />}
      {/* An agent-held thread already gives its agent the session credential. */}
      {!thread.agent && <ConnectAgent threadId={thread.id} />}
    </div>
  );
}
