#!/usr/bin/env -S node --max-semi-space-size=2
// The `ops` command. Each command loads its own modules when it runs, so
// `ops mcp` or `ops check` starts without loading the server.
import { Command, Option } from 'commander';
import { printCall, printTools, withServerOptions } from './cli/call.js';
import type { McpFlags } from './cli/mcp.js';
import { ConfigError, readConfig, type ServeFlags } from './config.js';

const program = new Command('ops').description('Aion Ops: configuration, checked and deployed, with an assistant.');

program
  .command('serve')
  .description('run the server (embedded store in --data, or PostgreSQL from DATABASE_URL)')
  .addOption(new Option('--port <port>', 'port to listen on (0: any free port)').env('AION_PORT'))
  .addOption(new Option('--host <host>', 'address to listen on').env('AION_HOST'))
  .addOption(new Option('--data <dir>', 'data folder of the embedded store').env('AION_DATA'))
  .option('--demo', 'seed an empty store with the demo project, operators and tokens')
  .option('--agent <NAME=COMMAND>', 'an ACP agent a thread may be held by (repeatable)', (value: string, all: string[] = []) => [...all, value])
  .action(async (flags: ServeFlags) => {
    const { serveUntilSignalled } = await import('./cli/serve.js');
    await serveUntilSignalled(readConfig(flags));
  });

program
  .command('check')
  .description('check local documents: compiler-style diagnostics, exit status 1 when there are any')
  .argument('<files...>', 'documents to check')
  .option('--schema <file>', 'a JSON Schema (YAML) every document must satisfy')
  .option('--secrets <names>', 'comma-separated secret names the environment holds', (value: string) => value.split(','))
  .action(async (files: string[], options: { schema?: string; secrets?: string[] }) => {
    const { checkFiles } = await import('./cli/check.js');
    process.exitCode = await checkFiles(files, options, (line) => console.log(line));
  });

withServerOptions(program.command('mcp'))
  .description("serve an Aion server's tools to an MCP client on stdio, as the token's operator")
  .option('--project <slug>', 'fill in this project when a tool call leaves it out')
  .option('--environment <name>', 'fill in this environment when a tool call leaves it out')
  .option('--read-only', 'hide the write tools, and have the server refuse them')
  .option('--tools <names>', 'serve only these tools (comma-separated)')
  .action(async (flags: McpFlags) => {
    const { serveMcp } = await import('./cli/mcp.js');
    process.exitCode = await serveMcp(flags, (line) => console.error(line));
  });

withServerOptions(program.command('tools'))
  .description('list the tools: tag, permission, and whether you may run them (in --project/--environment)')
  .option('--project <slug>', 'say whether you may run each tool in this project')
  .option('--environment <name>', 'and in this environment')
  .action(async (flags: { url: string; token?: string; project?: string; environment?: string }) => {
    process.exitCode = await printTools(flags, (line) => console.log(line), (line) => console.error(line));
  });

withServerOptions(program.command('call'))
  .description('run one tool as the token\'s operator and print its answer; exit status 1 when the tool refused or failed')
  .argument('<name>', 'the tool, e.g. list_environments')
  .option('--input <json>', 'the tool input, a JSON object', '{}')
  .action(async (name: string, flags: { url: string; token?: string; input: string }) => {
    process.exitCode = await printCall(name, flags, (line) => console.log(line), (line) => console.error(line));
  });

program
  .command('demo-agent')
  .description('a deterministic ACP agent on stdio, for tests and the demo (the fake model\'s counterpart)')
  .action(async () => {
    const { serveDemoAgent } = await import('./acp/demo-agent.js');
    await serveDemoAgent();
  });

program.parseAsync().catch((error: unknown) => {
  console.error(error instanceof ConfigError ? `ops: ${error.message}` : error);
  process.exit(error instanceof ConfigError ? 2 : 1);
});
