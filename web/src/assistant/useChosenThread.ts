// Which conversation of this project and environment the panel shows: the
// operator's choice, kept per scope in session storage (where the top bar
// may also put it), else the newest; none after it was deleted elsewhere,
// with a calm word of it.
import { useState } from 'react';
import type { ThreadResponse } from '../../../src/wire/thread';
import type { Scope } from '../scope';
import { chosenThreadKey } from './showThread';
import { NONE } from './ThreadBar';

/** `scoped`: this scope's conversations, newest first. */
export function useChosenThread(scope: Scope, scoped: readonly ThreadResponse[]) {
  const scopeKey = chosenThreadKey(scope.project, scope.environment);
  // NONE when the open conversation was deleted elsewhere: none is shown until the operator picks or starts one.
  const [chosen, setChosen] = useState<string | null>(() => sessionStorage.getItem(scopeKey));
  /** A calm word that the conversation shown was deleted elsewhere. */
  const [gone, setGone] = useState('');
  // Another project or environment: its own choice, read from storage (where the top bar may just have put it).
  const [shownScope, setShownScope] = useState(scopeKey);
  if (shownScope !== scopeKey) {
    setShownScope(scopeKey);
    setChosen(sessionStorage.getItem(scopeKey));
    setGone('');
  }
  const thread = chosen === NONE ? null : (scoped.find((t) => t.id === chosen) ?? scoped[0] ?? null);

  return {
    thread,
    /** The id chosen, also when the list (read again) no longer has it. */
    chosen,
    gone,
    choose(id: string) {
      sessionStorage.setItem(scopeKey, id);
      setChosen(id);
      setGone('');
    },
    /** Shown from the top bar, which already put it in storage. */
    shown(id: string) {
      setChosen(id);
      setGone('');
    },
    /** Deleted here: the newest is shown. */
    forget() {
      sessionStorage.removeItem(scopeKey);
      setChosen(null);
    },
    /** Deleted elsewhere: none is shown, with `sentence`. */
    deletedElsewhere(sentence: string) {
      sessionStorage.removeItem(scopeKey);
      setChosen(NONE);
      setGone(sentence);
    },
  };
}
