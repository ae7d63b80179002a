// Sign in with an operator token; the token is checked against the API
// before the tab keeps it.
import { useState, type FormEvent } from 'react';
import { ApiError } from '../api/client';
import { farewellSentence, signIn } from './token';

export function SignIn() {
  const [token, setToken] = useState('');
  const [sentence, setSentence] = useState(farewellSentence());
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setSentence('');
    try {
      const response = await fetch('/api/v1/projects', { headers: { authorization: `Bearer ${token.trim()}`, accept: 'application/json' } });
      if (response.status === 401) {
        setSentence('That token was not accepted: it is unknown, revoked or expired. Check it and try again.');
        return;
      }
      if (!response.ok) throw new ApiError(response.status, `the server answered ${response.status}`, null);
      signIn(token.trim());
    } catch (error) {
      setSentence(error instanceof Error ? `The server could not be reached: ${error.message}.` : 'The server could not be reached.');
    } finally {
      setBusy(false);
    }
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
        <button type="submit" className="primary" disabled={busy || token.trim() === ''}>
          Sign in
        </button>
        <p className="muted small">
          <code>ops serve --demo</code> prints a sign-in link for each demo operator.
        </p>
      </form>
    </main>
  );
}
