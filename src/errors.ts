// Typed errors raised by the services. Each carries a sentence for the
// operator; http/errors.ts maps the kinds to statuses in one place, and the
// tool executor turns them into `{ error }` results.

export type ErrorKind =
  | 'bad_token'
  | 'forbidden'
  | 'not_found'
  | 'conflict'
  | 'invalid'
  | 'too_many'
  | 'unavailable';

export class AppError extends Error {
  constructor(
    readonly kind: ErrorKind,
    message: string,
    /** Seconds to wait before retrying (too_many). */
    readonly retryAfter?: number,
  ) {
    super(message);
    this.name = 'AppError';
  }
}

export const badToken = () => new AppError('bad_token', 'bad token');
export const forbidden = (sentence: string) => new AppError('forbidden', sentence);
export const notFound = (sentence: string) => new AppError('not_found', sentence);
export const conflict = (sentence: string) => new AppError('conflict', sentence);
export const invalid = (sentence: string) => new AppError('invalid', sentence);
export const tooMany = (sentence: string, retryAfter: number) => new AppError('too_many', sentence, retryAfter);
export const unavailable = (sentence: string) => new AppError('unavailable', sentence);

/** The sentence of anything thrown: its message, or the value itself. */
export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * A write refused before it started, for the request that asked: its client
 * left, it waited past the bound, or another retry holds its Idempotency-Key.
 * Nothing changed, so sending it again is safe (503, Retry-After).
 */
export class WriteNotStarted extends AppError {
  constructor(sentence: string) {
    super('unavailable', sentence, 1);
  }
}
