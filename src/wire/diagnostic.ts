// A problem a check found in a document's text, where the operator reads it off the editor's gutter.
export interface Diagnostic {
  /** 1-based line. */
  line: number;
  /** 1-based column in UTF-16 code units (JavaScript string indices), as editors count them. */
  column: number;
  message: string;
}
