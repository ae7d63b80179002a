// The `ops` command line. Each command loads its own modules when it runs, so
// `ops mcp` or `ops check` starts without loading the server. Exit status:
// 0 done; 1 refused or failed (one sentence on stderr, never a stack trace);
// 2 a usage error (a bad flag, argument or setting).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Command, CommanderError, Option } from 'commander';
import { AppError, messageOf } from '../errors.js';
import { ConfigError, readConfig, SERVE_DEFAULTS, SERVE_ENVIRONMENT, StartError, type ServeFlags } from '../config.js';
import { PACKAGE_ROOT } from '../package-root.js';
import { printCall, printTools, withServerOptions } from './call.js';
import type { McpFlags } from './mcp.js';

export interface Io {
  out(line: string): void;
  err(line: string): void;
  env: Readonly<Record<string, string | undefined>>;
}

const VERSION = (JSON.parse(readFileSync(path.join(PACKAGE_ROOT, 'package.json'), 'utf8')) as { version: string }).version;

function dataOption(): Option {
  return new Option('--data <dir>', 'data folder of the embedded store').env('AION_DATA').default(SERVE_DEFAULTS.data);
}

function environmentHelp(): string {
  const width = Math.max(...SERVE_ENVIRONMENT.map(([name]) => name.length));
  return ['', 'Environment (flags win over it):', ...SERVE_ENVIRONMENT.map(([name, meaning]) => `  ${name.padEnd(width)}  ${meaning}`)].join('\n');
}

function buildProgram(io: Io, done: (status: number) => void): Command {
  const program = new Command('ops')
    .description('Aion Ops: configuration, checked and deployed, with an assistant.')
    .version(VERSION, '-V, --version', 'print the version')
    // Commander's own usage errors exit 2, like ours; its help and version, 0.
    .exitOverride()
    .configureOutput({
      writeOut: (text) => io.out(text.trimEnd()),
      writeErr: (text) => io.err(text.trimEnd()),
    })
    .showHelpAfterError('(ops --help, or ops COMMAND --help, for usage)');
  const settings = (flags: ServeFlags = {}) => readConfig(flags, io.env);

  program
    .command('serve')
    .description('run the server (embedded store in --data, or PostgreSQL from DATABASE_URL)')
    .addOption(new Option('--port <port>', 'port to listen on (0: any free port)').env('AION_PORT').default(SERVE_DEFAULTS.port))
    .addOption(new Option('--host <host>', 'address to listen on').env('AION_HOST').default(SERVE_DEFAULTS.host))
    .addOption(dataOption())
    .option('--demo', 'seed an empty store with the demo project, operators and tokens', false)
    .option('--agent <NAME=COMMAND>', 'an ACP agent a thread may be held by (repeatable; none by default)', (value: string, all: string[] = []) => [...all, value])
    .addHelpText('after', environmentHelp())
    .action(async (flags: { port: string; host: string; data: string; demo: boolean; agent?: string[] }) => {
      const { serveUntilSignalled } = await import('./serve.js');
      await serveUntilSignalled(settings(flags));
    });

  program
    .command('check')
    .description('check local documents: compiler-style diagnostics, exit status 1 when there are any')
    .argument('<files...>', 'documents to check')
    .option('--schema <file>', 'a JSON Schema (YAML) every document must satisfy')
    .option('--secrets <names>', 'comma-separated secret names the environment holds', (value: string) => value.split(','))
    .action(async (files: string[], options: { schema?: string; secrets?: string[] }) => {
      const { checkFiles } = await import('./check.js');
      done(await checkFiles(files, options, io.out));
    });

  withServerOptions(program.command('mcp'))
    .description("serve an Aion server's tools to an MCP client on stdio, as the token's operator")
    .option('--project <slug>', 'fill in this project when a tool call leaves it out')
    .option('--environment <name>', 'fill in this environment when a tool call leaves it out (a call may still name another)')
    .option('--only-environment <name>', 'fence the connection to this environment: fill it in, and have the server refuse a call that names another')
    .option('--read-only', 'hide the write tools, and have the server refuse them')
    .option('--tools <names>', 'serve only these tools (comma-separated)')
    .action(async (flags: McpFlags) => {
      const { serveMcp } = await import('./mcp.js');
      done(await serveMcp(flags, io.err));
    });

  withServerOptions(program.command('tools'))
    .description('list the tools: tag, permission, and whether you may run them (in --project/--environment)')
    .option('--project <slug>', 'say whether you may run each tool in this project')
    .option('--environment <name>', 'and in this environment')
    .action(async (flags: { url: string; token?: string; project?: string; environment?: string }) => {
      done(await printTools(flags, io.out, io.err));
    });

  withServerOptions(program.command('call'))
    .description("run one tool as the token's operator and print its answer; exit status 1 when the tool refused or failed")
    .argument('<name>', 'the tool, e.g. list_environments')
    .option('--input <json>', 'the tool input, a JSON object', '{}')
    .action(async (name: string, flags: { url: string; token?: string; input: string }) => {
      done(await printCall(name, flags, io.out, io.err));
    });

  const admin = program.command('admin').description('look after the instance through its store, without a server');
  admin
    .command('token')
    .description("mint a new token for an owner from the store itself (DATABASE_URL, or the embedded store in --data), when every owner token is lost")
    .addOption(dataOption())
    .option('--operator <name>', 'the owner to mint it for', 'admin')
    .action(async (flags: { data: string; operator: string }) => {
      const { mintOwnerToken } = await import('./store-commands.js');
      done(await mintOwnerToken(settings(flags), flags.operator, io.out, io.err));
    });

  program
    .command('rotate-key')
    .description('re-seal every secret under a new instance key (AION_NEW_SECRET_KEY, or a new one), in one transaction')
    .addOption(dataOption())
    .action(async (flags: { data: string }) => {
      const { rotateKey } = await import('./store-commands.js');
      done(await rotateKey(settings(flags), io.env.AION_NEW_SECRET_KEY?.trim() || null, io.out, io.err));
    });

  program
    .command('backup')
    .description('copy the embedded store in --data to FILE (stop its server first); for PostgreSQL use pg_dump')
    .argument('<file>', 'where to write the backup')
    .addOption(dataOption())
    .action(async (file: string, flags: { data: string }) => {
      const { backup } = await import('./store-commands.js');
      done(await backup(settings(flags), file, io.err));
    });

  program
    .command('restore')
    .description('restore a backup into --data, a folder that holds no store yet')
    .argument('<file>', 'a file made by ops backup')
    .addOption(dataOption())
    .action(async (file: string, flags: { data: string }) => {
      const { restore } = await import('./store-commands.js');
      done(await restore(settings(flags), file, io.err));
    });

  program
    .command('demo-agent')
    .description("a deterministic ACP agent on stdio, for tests and the demo (the fake model's counterpart)")
    .action(async () => {
      const { serveDemoAgent } = await import('../acp/demo-agent.js');
      await serveDemoAgent();
    });

  return program;
}

/** Runs `ops` with these arguments; answers the exit status. Commands that keep running (serve, mcp) answer 0 once started. */
export async function runOps(args: string[], io: Io): Promise<number> {
  let status = 0;
  const program = buildProgram(io, (code) => (status = code));
  try {
    await program.parseAsync(args, { from: 'user' });
    return status;
  } catch (error) {
    if (error instanceof CommanderError) {
      return error.code === 'commander.helpDisplayed' || error.code === 'commander.version' || error.exitCode === 0 ? 0 : 2;
    }
    if (error instanceof ConfigError) {
      io.err(`ops: ${error.message}`);
      return 2;
    }
    if (error instanceof StartError || error instanceof AppError) {
      io.err(`ops: ${error.message}`);
      return 1;
    }
    // Unforeseen: still one line, the message without the trace.
    io.err(`ops: ${messageOf(error)}`);
    return 1;
  }
}
