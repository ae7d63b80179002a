// Where this package is installed: the folder holding its package.json, found
// upward from this module. The same path then holds from src/ (tests, tsx) and
// from the bundled server in dist/, whose chunks sit at another depth.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

function packageRoot(): string {
  let folder = path.dirname(fileURLToPath(import.meta.url));
  while (!existsSync(path.join(folder, 'package.json'))) {
    const parent = path.dirname(folder);
    if (parent === folder) throw new Error(`no package.json above ${fileURLToPath(import.meta.url)}: reinstall aion-ops`);
    folder = parent;
  }
  return folder;
}

export const PACKAGE_ROOT = packageRoot();
