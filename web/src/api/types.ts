// The API's answers the console reads (spec/assistant-and-tools.md, DESIGN.md §7).
// A turn's live events, and the tool calls and plan of an answer, are the
// server's own types, imported as types only (nothing of the server is bundled).
import type { PlanEntryView, ToolCallView, TurnEvent } from '../../../src/assistant/events';
import type { SessionCredential, SessionCredentialListing } from '../../../src/conversation/credentials';

export type Role = 'viewer' | 'developer' | 'operator' | 'admin';

export interface Environment {
  name: string;
  protected: boolean;
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

export type { TurnEvent };
/** A conversation's session credential: minted (its token shown that once), and as GET …/session-credentials lists it. */
export type { SessionCredential, SessionCredentialListing };
/** A tool call an agent made (or asked for), as the panel shows it. */
export type ToolCall = ToolCallView;
export type PlanEntry = PlanEntryView;

export interface ThreadMessage {
  at: string;
  id: number;
  role: 'user' | 'assistant';
  stop_reason?: string | null;
  text: string;
  tool_calls?: ToolCall[];
  plan?: PlanEntry[];
}

export interface ProposalRow {
  k: string;
  v: string;
}

export interface Proposal {
  decided_at?: string | null;
  environment: string;
  id: string;
  message_id: number;
  permission: string;
  project?: string | null;
  result: Record<string, unknown>;
  rows: ProposalRow[];
  status: 'pending' | 'accepted' | 'rejected' | 'failed';
  tag: 'read' | 'write';
  title: string;
  tool: string;
}

export interface Thread {
  /** The ACP agent holding the thread; null for the built-in assistant. */
  agent: string | null;
  created_at: string;
  environment: string;
  id: string;
  messages: ThreadMessage[];
  page: string;
  project?: string | null;
  proposals: Proposal[];
  role: string;
  state: 'idle' | 'waiting' | 'refused';
  title: string;
  updated_at: string;
}

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

export interface AuditRecord {
  id: number;
  at: string;
  operator: string | null;
  via: string;
  tool: string;
  environment: string | null;
  outcome: string;
  input: unknown;
  error: string | null;
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
