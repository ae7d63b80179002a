// "Connect an agent": mints the thread's session credential (12 hours) and
// shows how an MCP client uses it; the agent then reads the shared context
// and edits the open document, as this operator.
import { useState } from 'react';
import { api } from '../api/client';
import { Dialog } from '../ui/Dialog';

interface Credential {
  token: string;
  expires_at: string;
}

export function ConnectAgent({ threadId }: { threadId: string }) {
  const [credential, setCredential] = useState<Credential | null>(null);
  const [sentence, setSentence] = useState('');
  async function mint() {
    setSentence('');
    try {
      setCredential(await api<Credential>('POST', `/api/v1/assistant/threads/${threadId}/session-credential`));
    } catch (error) {
      setSentence(error instanceof Error ? error.message : String(error));
    }
  }
  const origin = window.location.origin;
  return (
    <>
      <button type="button" className="link" onClick={() => void mint()}>
        Connect an agent
      </button>
      {sentence && <span className="error small">{sentence}</span>}
      <Dialog title="Connect an agent to this conversation" open={credential !== null} onClose={() => setCredential(null)}>
        <p>
          An MCP client with this credential reads what you share and edits the document open in your editor; its other writes wait
          here as proposals. It expires {credential ? new Date(credential.expires_at).toLocaleString() : ''}.
        </p>
        <label htmlFor="agent-command">Command (stdio)</label>
        <textarea id="agent-command" readOnly rows={3} value={credential ? `npx ops mcp --url ${origin} --token ${credential.token}` : ''} />
        <p className="muted small">
          Or Streamable HTTP at <code>{origin}/mcp</code> with <code>Authorization: Bearer</code> and the token above.
        </p>
        <div className="dialog-actions">
          <button type="button" onClick={() => setCredential(null)}>
            Close
          </button>
        </div>
      </Dialog>
    </>
  );
}
