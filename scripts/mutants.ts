// `npm run mutants`: applies each mutation of the invariants (DESIGN §10) one
// at a time and runs only the test files that cover it; a mutation is killed
// when those tests fail. Everything happens in a copy of the tree in the
// system's temporary folder (node_modules linked, dist/ copied, so tests that
// start `ops` rebuild the copy's, not yours): your tree is never changed, and
// the copy is removed at the end, on Ctrl-C too.
//   npm run mutants                   every mutation
//   npm run mutants -- rollback audit only those whose name contains a word given
//   npm run mutants -- --baseline     first runs the covering files unmutated (they must pass)
// Exit status 1 when a mutation survived or could not be applied.
import { spawn } from 'node:child_process';
import { cp, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

interface Mutation {
  name: string;
  /** The invariant it breaks (DESIGN §10), or the issue's word for it. */
  breaks: string;
  file: string;
  /** Replaced exactly once: a text found other than once is reported, not guessed at. */
  from: string;
  to: string;
  /** The test files that must fail on it. */
  tests: string[];
}

const auditSkipped = (tool: string): Mutation => ({
  name: `audit-skipped-${tool}`,
  breaks: '§10.1/5 every write audited once',
  file: 'src/tools/executor.ts',
  from: 'if (audited) await this.deps.services.audit.write(tx, entry);\n    if (project && tool.reshapesProject)',
  to: `if (audited && tool.name !== '${tool}') await this.deps.services.audit.write(tx, entry);\n    if (project && tool.reshapesProject)`,
  tests: ['test/tools/audited-writes.test.ts'],
});

export const MUTATIONS: Mutation[] = [
  {
    name: 'rollback-skips-change-request',
    breaks: '§10.16 two approvals, whatever the path',
    file: 'src/tools/approval-gate.ts',
    from: "if (tool.tag !== 'write' || !project || !environment) return null;",
    to: "if (tool.tag !== 'write' || tool.name === 'rollback' || !project || !environment) return null;",
    tests: ['test/change-requests/protected-paths.test.ts'],
  },
  {
    name: 'sandbox-shows-data-folder',
    breaks: '§10.13 no agent reads the data folder',
    file: 'src/acp/launch.ts',
    from: 'denyRead: [server.dataDir],',
    to: 'denyRead: [],',
    tests: ['test/acp/hostile-agent.test.ts'],
  },
  {
    name: 'expired-credential-accepted',
    breaks: '§10.7 credentials (expired refused)',
    file: 'src/access/tokens.ts',
    from: 'if (!entry || (entry.expiresAt && entry.expiresAt <= now)) return null;',
    to: 'if (!entry) return null;',
    tests: ['test/access/credentials.test.ts'],
  },
  ...['create_environment', 'delete_secret', 'deploy', 'remove_member', 'rollback', 'set_member_role'].map(auditSkipped),
  {
    name: 'built-in-streams-credential',
    breaks: '§10.5 no secret in what is streamed',
    file: 'src/assistant/turn.ts',
    from: '${redactCredentials(block.text)}',
    to: '${block.text}',
    tests: ['test/assistant/redaction.test.ts'],
  },
  {
    name: 'agent-streams-credential',
    breaks: '§10.5 no secret in what is streamed',
    file: 'src/acp/answer.ts',
    from: "if (event.type === 'text') return this.showText(this.shown.push(event.delta));",
    to: "if (event.type === 'text') return this.showText(event.delta);",
    tests: ['test/assistant/redaction.test.ts'],
  },
  {
    name: 'permission-not-checked',
    breaks: '§10.1 the executor checks the permission again',
    file: 'src/tools/executor.ts',
    from: 'if (project && !permits(tool, project, environment)) {',
    to: 'if (false && project && !permits(tool, project, environment)) {',
    tests: ['test/tools/matrix.test.ts'],
  },
  {
    name: 'proposing-caller-writes',
    breaks: '§10.2 no write without the owner’s accept',
    file: 'src/tools/executor.ts',
    from: "if (call.propose && admitted.tool.tag === 'write') {",
    to: "if (call.propose && admitted.tool.tag === 'none') {",
    tests: ['test/assistant/proposals.test.ts'],
  },
  {
    name: 'accept-all-goes-on',
    breaks: '§10.4 accept-all stops at the first failure',
    file: 'src/assistant/proposals.ts',
    from: "if (accepted !== 'accepted') break;",
    to: "if (accepted !== 'accepted') continue;",
    tests: ['test/assistant/proposals.test.ts'],
  },
  {
    name: 'secret-in-audit',
    breaks: '§10.5 no secret in an audit entry',
    file: 'src/tools/secret-fields.ts',
    from: 'for (const field of tool.secretFields) if (field in copy) copy[field] = REDACTED;',
    to: '',
    tests: ['test/tools/canary.test.ts', 'test/tools/audited-writes.test.ts'],
  },
  {
    name: 'read-only-writes',
    breaks: '§10.12 read-only refuses writes at execution',
    file: 'src/tools/executor.ts',
    from: 'if (invocation.readOnly && changesSomething(tool)) {',
    to: 'if (false && invocation.readOnly && changesSomething(tool)) {',
    tests: ['test/mcp/read-only.test.ts', 'test/access/credentials.test.ts'],
  },
  {
    name: 'one-approval-enough',
    breaks: '§10.16 two approvals',
    file: 'src/tools/approval-gate.ts',
    from: 'return protection.approvalsRequired > 1 ? {',
    to: 'return protection.approvalsRequired > 2 ? {',
    tests: ['test/change-requests/protected-paths.test.ts'],
  },
  {
    name: 'deploy-with-diagnostics',
    breaks: '§10.11 no deploy with diagnostics',
    file: 'src/domain/deployments.ts',
    from: '  if (first) {\n    const count =',
    to: '  if (first && false) {\n    const count =',
    tests: ['test/domain/deployments.test.ts'],
  },
  {
    name: 'thread-delete-keeps-credentials',
    breaks: '§10.6 deleting a thread revokes its credentials',
    file: 'src/assistant/threads.ts',
    from: "for (const { id } of credentials) touch(`token:${id}`);",
    to: '',
    tests: ['test/assistant/routes.test.ts', 'test/conversation/session-credentials.test.ts'],
  },
  {
    name: 'data-folder-group-readable',
    breaks: '§10.17 the data folder is its owner’s only',
    file: 'src/store/private-files.ts',
    from: 'export const NOT_OWNER = 0o077;',
    to: 'export const NOT_OWNER = 0o000;',
    tests: ['test/store/file-modes.test.ts'],
  },
  {
    // The request's log line names no header (serializeRequest): its URL is where a token would show.
    name: 'token-in-logged-url',
    breaks: '§10.5 no secret in a log',
    file: 'src/http/log-redaction.ts',
    from: 'url: redactQuery(request.url),',
    to: 'url: request.url,',
    tests: ['test/http/hardening.test.ts'],
  },
];

const REPO = fileURLToPath(new URL('..', import.meta.url));
/** What the copy holds of the tree: enough to build and test. */
const COPIED = ['src', 'test', 'scripts', 'web', 'dist', 'package.json', 'tsconfig.json', 'vitest.config.ts', 'drizzle.config.ts'];
/** A covering file that runs longer than this is stopped and counted a failure. */
const RUN_TIMEOUT_MS = 10 * 60_000;

async function copyTree(): Promise<string> {
  const copy = await mkdtemp(path.join(os.tmpdir(), 'aion-mutants-'));
  for (const entry of COPIED) {
    // Never a run's scratch files (test/.tmp), which may be another run's.
    await cp(path.join(REPO, entry), path.join(copy, entry), { recursive: true, preserveTimestamps: true, filter: (source) => !source.includes(`${path.sep}.tmp`) });
  }
  await symlink(path.join(REPO, 'node_modules'), path.join(copy, 'node_modules'));
  return copy;
}

/** Runs vitest on `files` in `cwd`; answers whether they all passed, and how long it took. */
function runTests(cwd: string, files: string[]): Promise<{ passed: boolean; seconds: number; tail: string }> {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['node_modules/vitest/vitest.mjs', 'run', ...files], { cwd, env: { ...process.env, FORCE_COLOR: '0' }, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    const timer = setTimeout(() => child.kill('SIGKILL'), RUN_TIMEOUT_MS);
    child.once('exit', (code) => {
      clearTimeout(timer);
      const tail = output.split('\n').filter((line) => /FAIL|tests:|Error/.test(line)).slice(0, 3).join(' | ');
      resolve({ passed: code === 0, seconds: (Date.now() - started) / 1000, tail });
    });
  });
}

function occurrences(text: string, part: string): number {
  return text.split(part).length - 1;
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const baseline = args.includes('--baseline');
  const words = args.filter((arg) => !arg.startsWith('--'));
  const chosen = MUTATIONS.filter((m) => words.length === 0 || words.some((word) => m.name.includes(word)));
  if (chosen.length === 0) throw new Error(`no mutation's name contains ${words.join(' or ')}; names: ${MUTATIONS.map((m) => m.name).join(', ')}`);

  const copy = await copyTree();
  const cleanup = () => rm(copy, { recursive: true, force: true });
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => void cleanup().finally(() => process.exit(130)));
  console.error(`a copy of the tree in ${copy}; ${chosen.length} mutations`);
  const rows: string[][] = [];
  try {
    if (baseline) {
      const files = [...new Set(chosen.flatMap((m) => m.tests))];
      const run = await runTests(copy, files);
      console.error(`baseline (${files.length} files, unmutated): ${run.passed ? 'pass' : `FAIL ${run.tail}`} in ${run.seconds.toFixed(0)} s`);
      if (!run.passed) throw new Error('the covering tests fail without a mutation: fix them first');
    }
    for (const mutation of chosen) {
      const file = path.join(copy, mutation.file);
      const original = await readFile(file, 'utf8');
      const found = occurrences(original, mutation.from);
      if (found !== 1) {
        rows.push([mutation.name, mutation.breaks, `NOT APPLIED (its text found ${found} times in ${mutation.file})`, '-', '']);
        continue;
      }
      try {
        await writeFile(file, original.replace(mutation.from, mutation.to));
        const run = await runTests(copy, mutation.tests);
        rows.push([mutation.name, mutation.breaks, run.passed ? 'SURVIVED' : 'killed', `${run.seconds.toFixed(0)} s`, mutation.tests.join(' ')]);
        // What failed, to tell an assertion from a run that could not start.
        if (!run.passed) console.error(`  ${run.tail}`);
      } finally {
        await writeFile(file, original);
      }
      console.error(rows.at(-1)?.slice(0, 4).join('  '));
    }
  } finally {
    await cleanup();
  }
  process.stdout.write(`${['| mutation | breaks | result | time | tests |', '| --- | --- | --- | --- | --- |', ...rows.map((row) => `| ${row.join(' | ')} |`)].join('\n')}\n`);
  const killed = rows.filter((row) => row[2] === 'killed').length;
  process.stdout.write(`\n${killed} of ${rows.length} killed\n`);
  if (killed !== rows.length) process.exitCode = 1;
}

await main();
