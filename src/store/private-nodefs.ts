// PGlite's files, owner-only from their first byte. PGlite writes through
// Emscripten's NODEFS, whose FS.writeFile (initdb's files, a loaded backup)
// creates each file 0666 and then chmods it so; a chmod ignores the process
// umask, so the umask cannot help. This filesystem (PGlite's `fs` option)
// clears the group and other bits of every mode NODEFS is given.
import { NodeFS } from '@electric-sql/pglite/nodefs';
import { NOT_OWNER } from './private-files.js';

type EmscriptenOptions = Awaited<ReturnType<NodeFS['init']>>['emscriptenOpts'];

/** The part of Emscripten's NODEFS whose modes reach the disk. */
interface NodeFsOperations {
  node_ops: { mknod(parent: unknown, name: string, mode: number, dev: unknown): unknown; setattr(node: unknown, attr: { mode?: number }): void };
  stream_ops: { setattr(stream: unknown, attr: { mode?: number }): void };
}

export class PrivateNodeFS extends NodeFS {
  override async init(...args: Parameters<NodeFS['init']>): Promise<{ emscriptenOpts: EmscriptenOptions }> {
    const { emscriptenOpts } = await super.init(...args);
    const preRun = [...(emscriptenOpts.preRun ?? []), (mod: unknown) => ownerOnly((mod as { NODEFS?: Partial<NodeFsOperations> }).NODEFS)];
    return { emscriptenOpts: { ...emscriptenOpts, preRun } };
  }
}

function ownerOnly(nodefs: Partial<NodeFsOperations> | undefined): void {
  const { node_ops: nodes, stream_ops: streams } = nodefs ?? {};
  // Refusing to open beats opening with files every local user can read.
  if (!nodes?.mknod || !nodes.setattr || !streams?.setattr) throw new Error('this PGlite has no NODEFS to keep its files private in; see src/store/private-nodefs.ts');
  const { mknod, setattr } = nodes;
  const setStreamAttr = streams.setattr;
  nodes.mknod = (parent, name, mode, dev) => mknod(parent, name, mode & ~NOT_OWNER, dev);
  nodes.setattr = (node, attr) => setattr(node, privateAttr(attr));
  streams.setattr = (stream, attr) => setStreamAttr(stream, privateAttr(attr));
}

function privateAttr(attr: { mode?: number }): { mode?: number } {
  return attr.mode === undefined ? attr : { ...attr, mode: attr.mode & ~NOT_OWNER };
}
