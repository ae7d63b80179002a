// The catalogue: every public tool, in the order clients list them.
import type { Tool } from '../types.js';
import { auditTools } from './audit.js';
import { changeRequestTools } from './change-requests.js';
import { conceptTools } from './concepts.js';
import { deploymentTools } from './deployments.js';
import { documentTools } from './documents.js';
import { identityTools } from './identity.js';
import { projectTools } from './projects.js';
import { secretTools } from './secrets.js';

export const CATALOGUE: readonly Tool[] = [
  ...identityTools,
  ...projectTools,
  ...documentTools,
  ...deploymentTools,
  ...secretTools,
  ...changeRequestTools,
  ...auditTools,
  ...conceptTools,
];
