import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const TMP_ROOT = path.join(REPO_ROOT, 'test', '.tmp');
export const OPS_BIN = path.join(REPO_ROOT, 'dist', 'main.js');

