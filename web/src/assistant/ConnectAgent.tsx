// "Connect an agent": the conversation's live session credentials (created,
// expires, last used), each with Revoke, and a new one on request, shown once
// with how an MCP client uses it; the agent then reads the shared context and
// edits the open document, as this operator.
import { useId, useRef, useState } from 'react';
import { api } from '../api/client';
import { useSessionCredentials } from '../api/queries';
import type { SessionCredential, SessionCredentialListing } from '../api/types';
import { Dialog } from '../ui/Dialog';
import { shortTime } from '../ui/time';
import { useAction } from '../ui/useAction';

const REFRESH = ['session-credentials'];

export function ConnectAgent({ threadId }: { threadId: string }) {
  const [open, setOpen] = useState(false);
  const [minted, setMinted] = useState<SessionCredential | null>(null);
  const credentials = useSessionCredentials(threadId, open);
  const { run, busy, error, clearError } = useAction();
  // A revoked row takes its button with it: focus goes to the list, not out of the dialog.
  const list = useRef<HTMLDivElement>(null);
  const listHeading = useId();
  const path = `/api/v1/assistant/threads/${threadId}`;

  function close() {
    setOpen(false);
    setMinted(null);
    clearError();
  }
  async function mint() {
    const credential = await run(() => api<SessionCredential>('POST', `${path}/session-credential`), REFRESH);
    if (credential) setMinted(credential);
  }
  async function revoke(id: string) {
    await run(() => api<null>('DELETE', `${path}/session-credentials/${id}`), REFRESH);
    if (minted?.id === id) setMinted(null);
    list.current?.focus();
  }

  const origin = window.location.origin;
  return (
    <>
      <button type="button" className="link" onClick={() => setOpen(true)}>
        Connect an agent
      </button>
      <Dialog title="Connect an agent to this conversation" open={open} onClose={close}>
        <p>
          An MCP client with a credential of this conversation reads what you share and edits the document open in your editor; its other
          writes wait here as proposals. A credential lasts 12 hours, until you revoke it or delete the conversation.
        </p>
        {minted ? (
          <>
            <label htmlFor="agent-command">Command (stdio), shown this once</label>
            <textarea id="agent-command" readOnly autoFocus rows={3} value={`npx ops mcp --url ${origin} --token ${minted.token}`} />
            <p className="muted small">
              Or Streamable HTTP at <code>{origin}/mcp</code> with <code>Authorization: Bearer</code> and the token above.
            </p>
          </>
        ) : (
          <button type="button" className="primary" disabled={busy} onClick={() => void mint()}>
            New credential
          </button>
        )}
        <div ref={list} tabIndex={-1} role="group" aria-labelledby={listHeading}>
          <h3 id={listHeading} className="small">
            Live credentials
          </h3>
          <CredentialList credentials={credentials.data} busy={busy} onRevoke={(id) => void revoke(id)} />
        </div>
        {(error || credentials.error) && (
          <p role="alert" className="error small">
            {error || credentials.error?.message}
          </p>
        )}
        <div className="dialog-actions">
          <button type="button" onClick={close}>
            Close
          </button>
        </div>
      </Dialog>
    </>
  );
}

function CredentialList({
  credentials,
  busy,
  onRevoke,
}: {
  credentials: SessionCredentialListing[] | undefined;
  busy: boolean;
  onRevoke: (id: string) => void;
}) {
  if (!credentials) return <p className="loading small">Loading…</p>;
  if (credentials.length === 0) return <p className="muted small">None: no client can act in this conversation.</p>;
  return (
    <table className="grid small">
      <thead>
        <tr>
          <th scope="col">Created</th>
          <th scope="col">Expires</th>
          <th scope="col">Last used</th>
          <th scope="col">
            <span className="visually-hidden">Revoke</span>
          </th>
        </tr>
      </thead>
      <tbody>
        {credentials.map((credential) => (
          <tr key={credential.id}>
            <td>{shortTime(credential.created_at)}</td>
            <td>{shortTime(credential.expires_at)}</td>
            <td>{credential.last_used_at ? shortTime(credential.last_used_at) : 'never'}</td>
            <td>
              <button
                type="button"
                disabled={busy}
                aria-label={`Revoke the credential created ${shortTime(credential.created_at)}`}
                onClick={() => onRevoke(credential.id)}
              >
                Revoke
              </button>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
