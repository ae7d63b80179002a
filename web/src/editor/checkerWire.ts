// What the page and the checker's worker (checkWorker.ts) say to each other.
export type CheckerMessage =
  /** The buffer opened with this text. */
  | { kind: 'open'; text: string }
  /** The buffer changed: CodeMirror's ChangeSet JSON. */
  | { kind: 'edit'; changes: unknown }
  /** Send check_document with `input` and the buffer as `text`. */
  | { kind: 'check'; id: number; url: string; headers: Record<string, string>; input: Record<string, unknown> };

/** The answer's status and body, or why no answer came (the server is away). */
export type CheckerAnswer = { id: number; status: number; body: string } | { id: number; failure: string };
