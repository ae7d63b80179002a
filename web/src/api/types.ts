// The API's answers the console reads (spec/assistant-and-tools.md, DESIGN.md §7).
// Threads, messages, proposals, turn events and audit entries are the wire
// types of src/wire, imported where they are used, as types only (nothing of
// the server is bundled).
import type { SessionCredential, SessionCredentialListing } from '../../../src/conversation/credentials';
import type { RevisionListing } from '../../../src/domain/documents';

export type Role = 'viewer' | 'developer' | 'operator' | 'admin';

export interface Environment {
  name: string;
  protected: boolean;
  /** 2: each change there is a change request a second operator approves. */
  approvals_required: number;
}

export interface Project {
  slug: string;
  name: string;
  role: Role;
  environments: Environment[];
}

export interface ToolDescriptor {
  allowed: boolean;
  description: string;
  name: string;
  permission?: string | null;
  tag: 'read' | 'write';
}

/** A conversation's session credential: minted (its token shown that once), and as GET …/session-credentials lists it. */
export type { SessionCredential, SessionCredentialListing };

/** A revision as list_revisions lists it (no text). */
export type { RevisionListing };

export interface AssistantStatus {
  configured: boolean;
  model?: string | null;
  sentence: string;
}

/** A configured ACP agent (GET /api/v1/assistant/agents). */
export interface Agent {
  name: string;
  title: string;
  available: boolean;
  /** Why it is not available; "" when it is. */
  sentence: string;
  /** False when it runs outside the OS sandbox (the admin turned it off). */
  sandboxed: boolean;
}

/** A thread's model token totals (GET …/threads/{id}/usage). */
export interface Usage {
  calls: number;
  input_tokens: number;
  output_tokens: number;
  cache_creation_input_tokens: number;
  cache_read_input_tokens: number;
}

export interface DocumentListing {
  path: string;
  revision: number;
  updated_at: string;
  live: Record<string, number>;
}

export interface Revision {
  path: string;
  revision: number;
  current_revision: number;
  author: string | null;
  message: string | null;
  created_at: string;
  text: string;
}

export interface Diagnostic {
  line: number;
  column: number;
  message: string;
}

export interface Deployment {
  deployment: number;
  path: string;
  revision: number;
  operator: string | null;
  via: string;
  rollback: boolean;
  deployed_at: string;
}

export interface Secret {
  name: string;
  version: number;
  updated_by: string | null;
  updated_at: string;
}

export interface Member {
  operator: string;
  role: Role;
}

/** What a conversation sees (spec/assistant-conversation-schemas.md, assistant_context). */
export interface SharedDocument {
  path: string;
  text: string;
  selection?: { from_line: number; from_column: number; to_line: number; to_column: number } | null;
  cursor?: { line: number; column: number } | null;
}

export type ContextView =
  | { shared: false }
  | { shared: true; url: string | null; concepts: string[]; document: SharedDocument | null; revision: number };
