// What tools may use besides their context: the project directory, the audit
// log and the secret box. Created once per server (src/services.ts).
import type { AuditLog } from '../domain/audit.js';
import type { ProjectDirectory } from '../domain/project-directory.js';
import type { SecretBox } from '../domain/secret-box.js';

export interface ToolServices {
  projects: ProjectDirectory;
  audit: AuditLog;
  secretBox: SecretBox;
}
