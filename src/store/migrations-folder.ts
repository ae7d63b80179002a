// Where the migrations are: they ship as SQL beside the source, not in the bundle.
import path from 'node:path';
import { PACKAGE_ROOT } from '../package-root.js';

export const MIGRATIONS_FOLDER = path.join(PACKAGE_ROOT, 'src', 'store', 'migrations');
