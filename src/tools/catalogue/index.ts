// The catalogue: every public tool, in the order clients list them.
import type { Tool } from '../types.js';
import { identityTools } from './identity.js';
import { projectTools } from './projects.js';

export const CATALOGUE: readonly Tool[] = [...identityTools, ...projectTools];
