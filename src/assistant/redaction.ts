// Credentials in what the assistant or an agent says (an agent echoing its own
// session credential, a key it read) are replaced by `[credential]` before the
// answer is stored or streamed: unlike an operator's parked secret, nothing
// will ever need the value back.

/** Recognised credentials: an operator's message parks each match, an answer redacts it. */
export const CREDENTIALS: readonly RegExp[] = [
  /-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----[\s\S]*?-----END [A-Z0-9 ]*PRIVATE KEY-----/g,
  /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/g, // AWS access key ids
  /\b(?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{36,255}\b/g, // GitHub tokens
  /\bgithub_pat_[A-Za-z0-9_]{22,255}\b/g,
  /\bxox[abposr]-[A-Za-z0-9-]{10,}/g, // Slack
  /\bsk-ant-[A-Za-z0-9_-]{20,}/g, // Anthropic
  /\baion_(?:svc_|ses_)?[A-Za-z0-9_-]{43}(?![A-Za-z0-9_-])/g, // ours: operator, service and session tokens
  /\beyJ[A-Za-z0-9_-]{5,}\.eyJ[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]{10,}/g, // JWTs
  /(?<=\b[a-z][a-z0-9+.-]*:\/\/[^\s:/@]+:)[^\s@/]+(?=@)/gi, // the password in scheme://user:password@host
];

export const REDACTED = '[credential]';

export function redactCredentials(text: string): string {
  return CREDENTIALS.reduce((redacted, pattern) => redacted.replace(pattern, REDACTED), text);
}

/** A copy of `value` with every string in it redacted. */
export function redactCredentialsIn(value: unknown): unknown {
  if (typeof value === 'string') return redactCredentials(value);
  if (Array.isArray(value)) return value.map(redactCredentialsIn);
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, redactCredentialsIn(item)]));
  }
  return value;
}

/** Longer words are shown as they stand (redacted): a hostile stream cannot make the filter hold without end. */
const MAX_HELD_CHARS = 4096;

/**
 * Redacts text that arrives in pieces, where a credential may be split between
 * two of them. Credentials but the PEM key are unbroken words, so the last
 * word of what came so far is held back until whitespace ends it, or until
 * `release` (before the answer's next event, or at its end).
 */
export class CredentialFilter {
  private held = '';

  /** What of the text so far may be shown now, redacted. */
  push(piece: string): string {
    const text = this.held + piece;
    const end = trailingWordStart(text);
    this.held = text.length - end > MAX_HELD_CHARS ? '' : text.slice(end);
    return redactCredentials(text.slice(0, text.length - this.held.length));
  }

  /** What was held back, redacted as it stands. */
  release(): string {
    const rest = redactCredentials(this.held);
    this.held = '';
    return rest;
  }
}

/** Where the text's trailing word starts: after its last whitespace, or 0. */
function trailingWordStart(text: string): number {
  for (let i = text.length - 1; i >= 0; i--) if (/\s/.test(text.charAt(i))) return i + 1;
  return 0;
}
