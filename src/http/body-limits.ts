// How large a request body may be. DESIGN.md §7 caps bodies at 1 MiB; the
// routes that carry a document's text take more, because the document limit
// (1 MiB, src/documents/syntax.ts) counts the text's UTF-8 bytes while the
// body carries it JSON-escaped: a quote or newline takes 2 bytes, a control
// character 6 (`\u0001`), and a client that escapes non-ASCII (Python's
// json.dumps) writes 2–3 bytes of escapes per byte of text. Six times the
// text's limit holds any of these, plus room for the rest of the input.
import { MAX_DOCUMENT_BYTES } from '../documents/syntax.js';

export const BODY_LIMIT = 1024 * 1024;

/** The worst JSON escaping of a byte of text: a control character, `\u00XX`. */
const WORST_ESCAPING = 6;
/** The other fields beside the text (project, path, environment, JSON-RPC's envelope). */
const ENVELOPE = 64 * 1024;

/** Running a tool over REST or MCP (write_document, check_document) and sharing the editor's text. */
export const DOCUMENT_BODY_LIMIT = WORST_ESCAPING * MAX_DOCUMENT_BYTES + ENVELOPE;
