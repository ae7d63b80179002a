// "Connect an agent": the conversation's live session credentials (created,
// expires, last used), each with Revoke, and a new one on request, shown once
// with how an MCP client uses it; the agent then reads the shared context and
// edits the open document, as this operator.
import { useId, useRef, useState } from 'react';
import { api } from '../api/client';
import { useSessionCredentials } from '../api/queries';
import { queryKeys } from '../api/queryKeys';
import type { SessionCredential, SessionCredentialListing } from '../../../src/wire/session-credential';
import { Dialog } from '../ui/Dialog';
import { shortTime } from '../ui/time';
import { newestFailure, useAction } from '../ui/useAction';

export function ConnectAgent({ threadId }: { threadId: string }) {
  const [open, setOpen] = useState(false);
  const credentials = useSessionCredentials(threadId, open);
  const path = `/api/v1/assistant/threads/${threadId}`;
  const changes = [queryKeys.sessionCredentials(threadId)];
  const mint = useAction({ mutationFn: () => api<SessionCredential>('POST', `${path}/session-credential`), changes });
  // The credential just made, shown until the dialog closes or it is revoked.
  const minted = mint.data ?? null;
  const revoke = useAction({
    mutationFn: (id: string) => api<null>('DELETE', `${path}/session-credentials/${id}`),
    onSuccess: (_, id) => {
      if (minted?.id === id) mint.reset();
    },
    changes,
  });
  const busy = mint.isPending || revoke.isPending;
  const failure = newestFailure(mint, revoke) ?? credentials.error;
  // A revoked row takes its button with it: focus goes to the list, not out of the dialog.
  const list = useRef<HTMLDivElement>(null);
  const listHeading = useId();

  function close() {
    setOpen(false);
    mint.reset();
    revoke.reset();
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
          <button type="button" className="primary" disabled={busy} onClick={() => mint.mutate()}>
            New credential
          </button>
        )}
        <div ref={list} tabIndex={-1} role="group" aria-labelledby={listHeading}>
          <h3 id={listHeading} className="small">
            Live credentials
          </h3>
          <CredentialList credentials={credentials.data} busy={busy} onRevoke={(id) => revoke.mutate(id, { onSettled: () => list.current?.focus() })} />
        </div>
        {failure && (
          <p role="alert" className="error small">
            {failure.message}
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
