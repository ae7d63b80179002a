// A change request as the approver saw it, in one hash (DESIGN.md §14): what
// would run (tool and input, secret values redacted) and what it would change.
// Read from the stored JSON, whose key order the store keeps canonical, so
// every server computes the same; approving sends it back.
import { createHash } from 'node:crypto';
import type { StoredRequest } from './records.js';

export function requestFingerprint({ request }: StoredRequest): string {
  return createHash('sha256').update(JSON.stringify([request.tool, request.input, request.change])).digest('hex');
}
