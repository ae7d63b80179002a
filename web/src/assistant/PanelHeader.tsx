// The panel's header: its title (with the model, when no agent is connected),
// "New conversation", the hide button and, when agents are connected, the
// holder a new conversation goes to.
import type { Agent } from '../../../src/wire/agent';
import type { AssistantStatus } from '../../../src/wire/assistant-status';
import { HolderPicker } from './HolderPicker';

interface Props {
  status: AssistantStatus | undefined;
  agents: Agent[];
  environment: string | undefined;
  holderChoice: string;
  onPick: (holder: string) => void;
  canOpen: boolean;
  onNewConversation: () => void;
  onHide: () => void;
}

export function PanelHeader({ status, agents, environment, holderChoice, onPick, canOpen, onNewConversation, onHide }: Props) {
  return (
    <header>
      <h2>Assistant</h2>
      {agents.length === 0 && <span className="muted">{[status?.model, environment].filter(Boolean).join(' · ')}</span>}
      <span className="spacer" />
      <button type="button" disabled={!canOpen} onClick={onNewConversation}>
        New conversation
      </button>
      <button type="button" className="hide-panel" aria-label="Hide assistant" title="Hide assistant" onClick={onHide}>
        ✕
      </button>
      {/* A row of its own under the buttons: the holder's name is read whole, also in a narrow panel. */}
      {agents.length > 0 && <HolderPicker status={status} agents={agents} value={holderChoice} onChange={onPick} />}
    </header>
  );
}
