// The checker's diagnostics for the buffer in the chosen environment: the
// linter asks as the text changes, through the view's checker (its worker
// sends the text); each answer is kept with the environment and text it is
// for, so a switch of environment or an older text never passes for the
// current one.
import type { Text } from '@codemirror/state';
import { useCallback, useEffect, useRef, useState } from 'react';
import type { Diagnostic } from '../../../src/wire/diagnostic';
import type { BufferChecker } from './bufferChecker';

interface Checked {
  environment: string;
  /** The buffer as checked (CodeMirror's text: kept without a copy). */
  text: Text;
  diagnostics: Diagnostic[];
}

export interface Checks {
  /** The latest diagnostics in this environment; null until checked there. */
  diagnostics: Diagnostic[] | null;
  /** The diagnostics of exactly this text in this environment; null until checked. */
  diagnosticsOf(text: string): Diagnostic[] | null;
  /** Why checking failed, '' when it did not. */
  failure: string;
  /** Checks `text`, the buffer the checker holds now. */
  check(text: Text, checker: BufferChecker): Promise<Diagnostic[]>;
}

export function useChecks(project: string, path: string, environment: string | undefined): Checks {
  const [checked, setChecked] = useState<Checked | null>(null);
  const [failure, setFailure] = useState('');
  const environmentNow = useRef(environment);
  useEffect(() => {
    environmentNow.current = environment;
  }, [environment]);

  const check = useCallback(
    async (text: Text, checker: BufferChecker) => {
      const asked = environmentNow.current;
      if (!asked) return [];
      try {
        const { diagnostics } = await checker.check<{ diagnostics: Diagnostic[] }>({ project, environment: asked, path });
        if (environmentNow.current === asked) setChecked({ environment: asked, text, diagnostics });
        setFailure('');
        return diagnostics;
      } catch (error) {
        setFailure(error instanceof Error ? error.message : String(error));
        return [];
      }
    },
    [project, path],
  );

  const here = checked?.environment === environment ? checked : null;
  return {
    diagnostics: here?.diagnostics ?? null,
    // Read when nothing is unsaved (not as keys are typed): a length that differs settles it without a copy.
    diagnosticsOf: (text) => (here && here.text.length === text.length && here.text.toString() === text ? here.diagnostics : null),
    failure,
    check,
  };
}
