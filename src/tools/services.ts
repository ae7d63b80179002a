// What tools may use besides their context: the project directory, the audit
// log, the secret box, the conversations' shared contexts and the change
// requests. Made once per server.
import type { ChangeRequests } from '../change-requests/change-requests.js';
import type { ConversationContexts } from '../conversation/context.js';
import type { AuditLog } from '../domain/audit.js';
import type { ProjectDirectory } from '../domain/project-directory.js';
import type { SecretBox } from '../domain/secret-box.js';

export interface ToolServices {
  projects: ProjectDirectory;
  audit: AuditLog;
  secretBox: SecretBox;
  contexts: ConversationContexts;
  changeRequests: ChangeRequests;
}
