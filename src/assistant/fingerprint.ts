// A proposal as the person saw it, in one hash (DESIGN.md §14): its tool, its
// input (a deploy's or rollback's pinned revision in it) and its rows. Read in
// SQL from the stored JSON, whose text is canonical, so every server and
// every read agrees; Accept sends it back and a different one is refused.
import { sql } from 'drizzle-orm';
import { proposals } from '../store/schema.js';

export const proposalFingerprint = sql<string>`encode(sha256(convert_to(${proposals.tool} || ' ' || ${proposals.input}::text || ' ' || ${proposals.rows}::text, 'UTF8')), 'hex')`;
