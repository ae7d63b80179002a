#!/usr/bin/env node
// The `ops` command.
import { Command, Option } from 'commander';
import { checkFiles } from './cli/check.js';
import { serveUntilSignalled } from './cli/serve.js';
import { ConfigError, readConfig } from './config.js';

const program = new Command('ops').description('Aion Ops: configuration, checked and deployed, with an assistant.');

program
  .command('serve')
  .description('run the server (embedded store in --data, or PostgreSQL from DATABASE_URL)')
  .addOption(new Option('--port <port>', 'port to listen on (0: any free port)').env('AION_PORT'))
  .addOption(new Option('--host <host>', 'address to listen on').env('AION_HOST'))
  .addOption(new Option('--data <dir>', 'data folder of the embedded store').env('AION_DATA'))
  .option('--demo', 'seed an empty store with the demo project, operators and tokens')
  .action(async (flags: { port?: string; host?: string; data?: string; demo?: boolean }) => {
    await serveUntilSignalled(readConfig(flags));
  });

program
  .command('check')
  .description('check local documents: compiler-style diagnostics, exit status 1 when there are any')
  .argument('<files...>', 'documents to check')
  .option('--schema <file>', 'a JSON Schema (YAML) every document must satisfy')
  .option('--secrets <names>', 'comma-separated secret names the environment holds', (value: string) => value.split(','))
  .action(async (files: string[], options: { schema?: string; secrets?: string[] }) => {
    process.exitCode = await checkFiles(files, options, (line) => console.log(line));
  });

program.parseAsync().catch((error: unknown) => {
  console.error(error instanceof ConfigError ? `ops: ${error.message}` : error);
  process.exit(error instanceof ConfigError ? 2 : 1);
});
