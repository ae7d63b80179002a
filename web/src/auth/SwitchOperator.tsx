// A sign-in link for another operator, opened in a tab someone is signed in
// to: the tab asks before it switches (Keep is the default), and says whose
// link it is. Switching keeps the tab's storage (unsaved drafts stay).
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useWhoami } from '../api/queries';
import { Dialog } from '../ui/Dialog';
import { declineOffer, signIn, useOfferedToken } from './token';

type Named = { state: 'checking' } | { state: 'known'; name: string } | { state: 'refused'; sentence: string };

/** Whose token this is, asked of the server with that token (never kept unless the operator switches). */
async function operatorOf(token: string, signal: AbortSignal): Promise<Named> {
  const response = await fetch('/api/v1/assistant/tools/whoami', {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, accept: 'application/json', 'content-type': 'application/json', 'x-aion-via': 'console' },
    body: '{}',
    signal,
  });
  if (response.status === 401) return { state: 'refused', sentence: 'The link’s token was not accepted: it is unknown, revoked or expired.' };
  const body = (await response.json().catch(() => null)) as { is_error?: boolean; result?: { operator?: unknown } } | null;
  const name = body?.result?.operator;
  if (!response.ok || body?.is_error || typeof name !== 'string') return { state: 'refused', sentence: `The server could not say whose link this is (it answered ${response.status}).` };
  return { state: 'known', name };
}

export function SwitchOperator() {
  const offered = useOfferedToken();
  const current = useWhoami().data?.operator;
  const queries = useQueryClient();
  /** Whose token the server said `token` is; a token not answered for yet is being checked. */
  const [answer, setAnswer] = useState<{ token: string; named: Named } | null>(null);
  const named: Named = answer !== null && answer.token === offered ? answer.named : { state: 'checking' };

  useEffect(() => {
    if (!offered) return;
    const abort = new AbortController();
    const answered = (said: Named) => setAnswer({ token: offered, named: said });
    operatorOf(offered, abort.signal).then(answered, (error: unknown) => {
      if (!abort.signal.aborted) answered({ state: 'refused', sentence: `The server could not be reached: ${error instanceof Error ? error.message : String(error)}.` });
    });
    return () => abort.abort();
  }, [offered]);

  // The same operator's link (another token of theirs) needs no question.
  const same = named.state === 'known' && current !== undefined && named.name === current;
  useEffect(() => {
    if (offered && same) declineOffer();
  }, [offered, same]);

  function switchOperator() {
    if (!offered) return;
    queries.clear();
    signIn(offered);
  }

  const who = current ?? 'the operator signed in here';
  const title = named.state === 'known' ? `Sign in as ${named.name} instead of ${who}?` : 'A sign-in link for another operator';
  return (
    <Dialog title={title} open={offered !== null && !same} onClose={declineOffer}>
      {named.state === 'checking' && <p className="muted">Checking whose link this is…</p>}
      {named.state === 'known' && (
        <p>
          This tab is signed in as <strong>{who}</strong>; the link you opened signs in as <strong>{named.name}</strong>. Unsaved drafts stay in
          this tab’s storage either way.
        </p>
      )}
      {named.state === 'refused' && (
        <p role="alert" className="error">
          {named.sentence} You stay signed in as {who}.
        </p>
      )}
      <div className="dialog-actions">
        <button type="button" onClick={declineOffer}>
          Keep {who}
        </button>
        {named.state !== 'refused' && (
          <button type="button" className="primary" disabled={named.state !== 'known'} onClick={switchOperator}>
            {named.state === 'known' ? `Switch to ${named.name}` : 'Switch'}
          </button>
        )}
      </div>
    </Dialog>
  );
}
