// The operator's token lives for this tab only (sessionStorage), never in a
// URL the server sees: a sign-in link carries it in the fragment, which is
// read and cleared from the address bar at once, on load and on `hashchange`
// (a link pasted into an open tab). A link for another operator than the one
// signed in here is only offered: the tab asks before it switches.
import { useSyncExternalStore } from 'react';

const KEY = 'aion.token';
const listeners = new Set<() => void>();
let farewell = '';
/** A sign-in link's token for another operator, waiting for the operator's answer. */
let offered: string | null = null;

function changed(): void {
  listeners.forEach((listener) => listener());
}

/** Reads a `#token=` sign-in link, clears it from the address bar whatever follows, and signs in or offers the switch. */
export function takeTokenFromAddress(): void {
  const match = /^#token=([^&]*)/.exec(window.location.hash);
  if (!match) return;
  history.replaceState(history.state, '', window.location.pathname + window.location.search);
  let token: string;
  try {
    token = decodeURIComponent(match[1] ?? '').trim();
  } catch {
    return;
  }
  if (!token) return;
  const current = currentToken();
  if (current === token) {
    if (offered !== null) {
      offered = null;
      changed();
    }
    return;
  }
  if (current === null) {
    signIn(token);
    return;
  }
  offered = token;
  changed();
}

/** Follows sign-in links pasted into this tab (the page does not reload for a new fragment). */
export function watchAddressForTokens(): () => void {
  window.addEventListener('hashchange', takeTokenFromAddress);
  return () => window.removeEventListener('hashchange', takeTokenFromAddress);
}

export function currentToken(): string | null {
  return sessionStorage.getItem(KEY);
}

export function signIn(token: string): void {
  sessionStorage.setItem(KEY, token);
  farewell = '';
  offered = null;
  changed();
}

/** The token a pasted link offers, while the tab asks whether to switch to it. */
export function offeredToken(): string | null {
  return offered;
}

/** The operator keeps who is signed in: the offered link is dropped. */
export function declineOffer(): void {
  offered = null;
  changed();
}

/** The server no longer accepts the token: back to the sign-in form, unsaved drafts kept. */
export function forgetToken(sentence: string): void {
  sessionStorage.removeItem(KEY);
  farewell = sentence;
  changed();
}

/** The operator signs out: nothing of theirs stays in the tab. */
export function signOut(): void {
  sessionStorage.clear();
  farewell = '';
  offered = null;
  changed();
}

export function farewellSentence(): string {
  return farewell;
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useToken(): string | null {
  return useSyncExternalStore(subscribe, currentToken);
}

export function useOfferedToken(): string | null {
  return useSyncExternalStore(subscribe, offeredToken);
}
