// What `npm install` prints, checked: no warning and no notice but the one the
// README explains — on Node below 22.12, the sandbox runtime's declared engine
// (it runs on Node 20; the suite's sandbox tests prove it on every CI run).
// Usage: tsx scripts/check-install-output.ts FILE (npm's output, stderr included).
import { readFileSync } from 'node:fs';

const EXPLAINED = '@anthropic-ai/sandbox-runtime@';
const [major = 0, minor = 0] = process.versions.node.split('.').map(Number);
const runtimeEngineHolds = major > 22 || (major === 22 && minor >= 12);

const file = process.argv[2];
if (!file) {
  console.error('usage: tsx scripts/check-install-output.ts FILE');
  process.exit(2);
}
const warnings = readFileSync(file, 'utf8')
  .split('\n')
  .filter((line) => /^npm (warn|notice)/.test(line));
// An engine warning is one block of lines; the block is explained when its package line is.
const blocks: string[][] = [];
for (const line of warnings) {
  if (/^npm warn EBADENGINE Unsupported engine/.test(line) || blocks.length === 0 || !/^npm warn EBADENGINE /.test(line)) blocks.push([line]);
  else blocks.at(-1)?.push(line);
}
const unexplained = blocks.filter((block) => runtimeEngineHolds || !block.some((line) => line.includes(`package: '${EXPLAINED}`)));
if (unexplained.length > 0) {
  console.error(`npm install printed ${unexplained.length} warning(s) or notice(s) the README does not explain:\n${unexplained.map((block) => block.join('\n')).join('\n')}`);
  process.exit(1);
}
console.error(`npm install on Node ${process.versions.node}: ${blocks.length === 0 ? 'no warning' : 'only the sandbox runtime\'s engine warning the README explains'}`);
