// The operator's token lives for this tab only (sessionStorage), never in a
// URL the server sees: a sign-in link carries it in the fragment, which is
// read and cleared from the address bar before anything else runs.
import { useSyncExternalStore } from 'react';

const KEY = 'aion.token';
const listeners = new Set<() => void>();
let farewell = '';

export function takeTokenFromAddress(): void {
  const match = /^#token=([^&]+)$/.exec(window.location.hash);
  if (!match?.[1]) return;
  history.replaceState(history.state, '', window.location.pathname + window.location.search);
  signIn(decodeURIComponent(match[1]));
}

export function currentToken(): string | null {
  return sessionStorage.getItem(KEY);
}

export function signIn(token: string): void {
  sessionStorage.setItem(KEY, token);
  farewell = '';
  listeners.forEach((listener) => listener());
}

/** The server no longer accepts the token: back to the sign-in form, unsaved drafts kept. */
export function forgetToken(sentence: string): void {
  sessionStorage.removeItem(KEY);
  farewell = sentence;
  listeners.forEach((listener) => listener());
}

/** The operator signs out: nothing of theirs stays in the tab. */
export function signOut(): void {
  sessionStorage.clear();
  farewell = '';
  listeners.forEach((listener) => listener());
}

export function farewellSentence(): string {
  return farewell;
}

export function useToken(): string | null {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    currentToken,
  );
}
