// The checker's diagnostics for the buffer in the chosen environment: the
// linter asks as the text changes; each answer is kept with the environment
// and text it is for, so a switch of environment or an older text never
// passes for the current one.
import { useCallback, useEffect, useRef, useState } from 'react';
import { runTool } from '../api/client';
import type { Diagnostic } from '../../../src/documents/diagnostics';

interface Checked {
  environment: string;
  text: string;
  diagnostics: Diagnostic[];
}

export interface Checks {
  /** The latest diagnostics in this environment; null until checked there. */
  diagnostics: Diagnostic[] | null;
  /** The diagnostics of exactly this text in this environment; null until checked. */
  diagnosticsOf(text: string): Diagnostic[] | null;
  /** Why checking failed, '' when it did not. */
  failure: string;
  check(text: string): Promise<Diagnostic[]>;
}

export function useChecks(project: string, path: string, environment: string | undefined): Checks {
  const [checked, setChecked] = useState<Checked | null>(null);
  const [failure, setFailure] = useState('');
  const environmentNow = useRef(environment);
  useEffect(() => {
    environmentNow.current = environment;
  }, [environment]);

  const check = useCallback(
    async (text: string) => {
      const asked = environmentNow.current;
      if (!asked) return [];
      try {
        const { diagnostics } = await runTool<{ diagnostics: Diagnostic[] }>('check_document', { project, environment: asked, path, text });
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
    diagnosticsOf: (text) => (here?.text === text ? here.diagnostics : null),
    failure,
    check,
  };
}
