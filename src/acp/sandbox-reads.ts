// What an agent's sandbox may read: an allow-list (DESIGN §14, invariant 18).
// Everything else of the host is hidden, so a server run as any user shows
// its agent nothing of that user's: not its home, another instance's data
// folder, nor anything the list does not name. Named: the system's programs
// and libraries, the few files of /etc a program needs to start and to find
// loopback, the agent's own installation and Node's. The scratch folder is
// the sandbox's write path, and /tmp is the sandbox's own.
import { constants } from 'node:fs';
import { access, readdir, realpath } from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';

/** The system's programs and libraries (on a merged /usr, /bin and /lib are links into it). */
const SYSTEM = ['/usr', '/bin', '/sbin', '/lib', '/lib32', '/lib64', '/libx32'];

/**
 * From /etc, what a program needs without a network of its own: the dynamic
 * linker's cache, users and groups by number, loopback names, and the
 * certificate stores (a model API's TLS through the proxy). Not /etc whole:
 * it holds other services' keys and settings (/etc/ssl/private, a database's
 * passwords).
 */
const ETC = [
  '/etc/ld.so.cache',
  '/etc/ld.so.conf',
  '/etc/ld.so.conf.d',
  '/etc/alternatives',
  '/etc/passwd',
  '/etc/group',
  '/etc/nsswitch.conf',
  '/etc/host.conf',
  '/etc/hosts',
  '/etc/gai.conf',
  '/etc/ssl/certs',
  '/etc/ssl/openssl.cnf',
  '/etc/ca-certificates',
  '/etc/ca-certificates.conf',
  '/etc/pki/tls/certs',
  '/etc/pki/ca-trust',
];

/** The sandbox library's own helper, run inside every sandbox (it applies the seccomp filter). */
function libraryHelpers(): string[] {
  const entry = createRequire(import.meta.url).resolve('@anthropic-ai/sandbox-runtime');
  return [path.join(entry, '..', '..', 'vendor', 'seccomp')];
}

/**
 * The paths an agent started as `command args` (found on `searchPath`) may
 * read, with `extra` (Node and Aion, whose `ops mcp` it may run): those that
 * exist. A path at or above the server user's home is never among them.
 */
export async function readablePaths(command: string, args: string[], searchPath: string, extra: string[]): Promise<string[]> {
  const found = await onPath(command, searchPath);
  const files = [...(found ? [found] : []), ...args.filter((arg) => path.isAbsolute(arg)), ...extra];
  const installs = await Promise.all(files.map((file) => installOf(file)));
  // The command's own folder too: inside, it is found there by name.
  const folders = found ? [path.dirname(found)] : [];
  const candidates = [...SYSTEM, ...ETC, ...libraryHelpers(), ...folders, ...installs.flat()];
  const present = await Promise.all(candidates.map((entry) => access(entry).then(() => entry, () => null)));
  return [...new Set(present.filter((entry) => entry !== null))].filter((entry) => !holdsHome(entry));
}

/**
 * What running `file` reads besides the system: an installed package (below a
 * node_modules) with every package beside it, from the folder that holds the
 * outermost node_modules; a checkout (a package.json above it) its
 * package.json, node_modules and the top folder the file is in (dist/, never
 * the checkout's other files: a .env, a data folder); else the file's folder.
 */
async function installOf(file: string): Promise<string[]> {
  const real = await realpath(file).catch(() => null);
  if (!real) return [];
  const parts = real.split(path.sep);
  const modules = parts.indexOf('node_modules');
  if (modules > 0) {
    const holder = parts.slice(0, modules).join(path.sep) || path.sep;
    // A node_modules in a home folder (npm install run there) gives its packages, not the home.
    return [holdsHome(holder) ? path.join(holder, 'node_modules') : holder];
  }
  for (let folder = path.dirname(real); folder !== path.dirname(folder) && !holdsHome(folder); folder = path.dirname(folder)) {
    const manifest = path.join(folder, 'package.json');
    if (!(await access(manifest, constants.R_OK).then(() => true, () => false))) continue;
    const top = path.relative(folder, real).split(path.sep)[0] ?? '';
    return [manifest, path.join(folder, 'node_modules'), path.join(folder, top)];
  }
  return [path.dirname(real)];
}

/**
 * `allowed` without anything of `denied`: the library lets an allowed folder
 * win over a denied one inside it, so a folder holding a denied path (a data
 * folder in a checkout) is replaced by its entries but the one leading there,
 * down to the denied path itself.
 */
export async function carvedOut(allowed: string[], denied: string[]): Promise<string[]> {
  const kept: string[] = [];
  for (const entry of allowed) {
    if (denied.some((hidden) => isAtOrUnder(entry, hidden))) continue;
    const inside = denied.filter((hidden) => isAtOrUnder(hidden, entry));
    if (inside.length === 0) {
      kept.push(entry);
      continue;
    }
    const children = await readdir(entry).catch(() => []);
    kept.push(...(await carvedOut(children.map((child) => path.join(entry, child)), inside)));
  }
  return kept;
}

export function isAtOrUnder(candidate: string, folder: string): boolean {
  const relative = path.relative(folder, candidate);
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
}

/** Whether `folder` is the server user's home or above it. */
function holdsHome(folder: string): boolean {
  return isAtOrUnder(os.homedir(), folder);
}

/** The file `command` names on `searchPath` (as spawn would find it), or null. */
export async function onPath(command: string, searchPath: string): Promise<string | null> {
  if (command.includes('/')) return path.resolve(command);
  for (const folder of searchPath.split(path.delimiter).filter(Boolean)) {
    const candidate = path.join(folder, command);
    if (await access(candidate, constants.X_OK).then(() => true, () => false)) return candidate;
  }
  return null;
}
