// Sign in with an operator token; the token is checked against the API
// before the tab keeps it.
import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { farewellSentence, signIn } from './token';

/** Asks the API with `token`; fails with the sentence the form shows. */
async function check(token: string): Promise<void> {
  const response = await fetch('/api/v1/projects', { headers: { authorization: `Bearer ${token}`, accept: 'application/json' } }).catch(
    (error: unknown) => {
      throw new Error(`The server could not be reached: ${error instanceof Error ? error.message : String(error)}.`);
    },
  );
  if (response.status === 401) throw new Error('That token was not accepted: it is unknown, revoked or expired. Check it and try again.');
  if (!response.ok) throw new Error(`The server could not be reached: the server answered ${response.status}.`);
}

export function SignIn() {
  const [token, setToken] = useState('');
  const [farewell] = useState(farewellSentence);
  const signingIn = useMutation({ mutationFn: check, onSuccess: (_, checked) => signIn(checked) });
  // Why the tab was signed out, until the operator tries again.
  const sentence = signingIn.isIdle ? farewell : (signingIn.error?.message ?? '');

  function submit(event: FormEvent) {
    event.preventDefault();
    signingIn.mutate(token.trim());
  }

  return (
    <main className="sign-in">
      <form onSubmit={submit} aria-labelledby="sign-in-title">
        <h1 id="sign-in-title">Aion Ops</h1>
        <p className="muted">Sign in with your operator token. It stays in this tab only.</p>
        <label htmlFor="token">Token</label>
        <input
          id="token"
          type="password"
          autoComplete="off"
          spellCheck={false}
          value={token}
          onChange={(e) => setToken(e.target.value)}
          required
          autoFocus
        />
        {sentence && (
          <p role="alert" className="error">
            {sentence}
          </p>
        )}
        <button type="submit" className="primary" disabled={signingIn.isPending || token.trim() === ''}>
          Sign in
        </button>
        <p className="muted small">
          <code>ops serve --demo</code> prints a sign-in link for each demo operator.
        </p>
      </form>
    </main>
  );
}
