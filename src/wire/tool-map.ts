// The tools the console runs, by name: what each takes (as its schema in
// src/tools/catalogue says) and what it answers when it runs. The console's
// `runTool(name, input)` is typed from this one map, so a call names a tool
// that exists, passes what it takes, and reads what it answers.
//
// A write on an environment that requires approvals does not run: it answers
// the change request it opened instead (`ran: false`), which the console
// tells apart with `openedRequest` (web/src/change-requests/opened.tsx).
import type { AUDIT_OUTCOMES, AuditRecord } from './audit.js';
import type { DeploymentView } from './deployment.js';
import type { Diagnostic } from './diagnostic.js';
import type { DocumentListing, RevisionListing, RevisionView } from './document.js';
import type { Member } from './member.js';
import type { Role } from './role.js';
import type { SecretInfo } from './secret.js';

/** Project and environment default to the caller's. */
interface InProject {
  project?: string;
}
interface InEnvironment extends InProject {
  environment?: string;
}
/** Why: what a change request keeps, where the environment requires approvals. */
interface WithReason {
  reason?: string;
}

export interface ToolMap {
  whoami: { input: Record<string, never>; output: { operator: string; owner: boolean; projects: { project: string; role: Role }[] } };
  list_documents: { input: InProject; output: { project: string; documents: DocumentListing[] } };
  read_document: { input: InProject & { path: string; revision?: number }; output: RevisionView & { project: string } };
  list_revisions: {
    input: InProject & { path: string; limit?: number; before?: number };
    output: { project: string; current_revision: number; revisions: RevisionListing[] };
  };
  check_document: {
    input: InEnvironment & { path: string; revision?: number; text?: string };
    output: { project: string; environment: string; diagnostics: Diagnostic[]; ok: boolean };
  };
  write_document: {
    input: InProject & { path: string; text: string; base_revision?: number; message?: string };
    output: { project: string; path: string; revision: number; sha256: string; size: number; diagnostics: Record<string, Diagnostic[]> };
  };
  list_deployments: { input: InEnvironment & { limit?: number }; output: { project: string; environment: string; deployments: DeploymentView[] } };
  get_live_config: {
    input: InEnvironment & { path?: string };
    output: { project: string; environment: string; live: { path: string; revision: number; deployment: number; deployed_at: string; config: unknown }[] };
  };
  deploy: { input: InEnvironment & WithReason & { path: string; revision?: number }; output: DeploymentView & { project: string; environment: string } };
  rollback: { input: InEnvironment & WithReason & { path: string; revision?: number }; output: DeploymentView & { project: string; environment: string } };
  list_members: { input: InProject; output: { project: string; members: Member[] } };
  set_member_role: { input: InProject & { operator: string; role: Role }; output: { project: string; member: Member & { added: boolean } } };
  list_secrets: { input: InEnvironment; output: { project: string; environment: string; secrets: SecretInfo[] } };
  set_secret: { input: InEnvironment & WithReason & { name: string; value: string }; output: { project: string; environment: string; secret: SecretInfo } };
  delete_secret: { input: InEnvironment & WithReason & { name: string }; output: { project: string; environment: string; deleted: string } };
  set_environment_protection: {
    input: InEnvironment & WithReason & { protected?: boolean; approvals_required?: number; requester_may_approve?: boolean };
    output: { project: string; environment: string; protected: boolean; approvals_required: number; requester_may_approve: boolean };
  };
  read_audit: {
    input: InProject & {
      limit?: number;
      tool?: string;
      operator?: string;
      outcome?: (typeof AUDIT_OUTCOMES)[number];
      changes_only?: boolean;
      since?: string;
      until?: string;
      before?: number;
    };
    output: { project: string; entries: AuditRecord[] };
  };
}

export type ToolName = keyof ToolMap;
export type ToolInput<N extends ToolName> = ToolMap[N]['input'];
export type ToolOutput<N extends ToolName> = ToolMap[N]['output'];
