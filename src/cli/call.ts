// `ops tools` and `ops call NAME --input JSON`: the tool routes of an Aion
// server from a shell, through the same client as `ops mcp`. Exit status:
// 0 done, 1 the tool refused or failed (is_error), 2 the call did not run
// (bad flags or input, no such tool, bad token, server unreachable).
import { Option, type Command } from 'commander';
import { ConfigError } from '../config.js';
import { AppError } from '../errors.js';
import { AionClient } from '../mcp/aion-client.js';

export interface ServerFlags {
  url: string;
  token?: string;
}

/** Adds --url and --token, with their environment variables, to a command. */
export function withServerOptions(command: Command): Command {
  return command
    .addOption(new Option('--url <url>', 'the Aion server').env('AION_URL').default('http://127.0.0.1:8080'))
    .addOption(new Option('--token <token>', "an operator's token").env('AION_TOKEN'));
}

/** A client for the server the flags name; bad flags are a ConfigError. */
export function clientFor(flags: ServerFlags, headers: Record<string, string> = {}): AionClient {
  if (!/^https?:\/\/[^/]/.test(flags.url) || !URL.canParse(flags.url)) {
    throw new ConfigError(`--url must be an http:// or https:// address; got ${flags.url}`);
  }
  if (!flags.token) throw new ConfigError("no token: pass --token or set AION_TOKEN (an operator's token)");
  return new AionClient(flags.url, flags.token, headers);
}

export async function printTools(
  flags: ServerFlags & { project?: string; environment?: string },
  out: (line: string) => void,
  err: (line: string) => void,
): Promise<number> {
  const client = clientFor(flags);
  try {
    const tools = await client.tools({ project: flags.project, environment: flags.environment });
    const rows = [
      ['name', 'tag', 'permission', 'allowed'],
      ...tools.map((t) => [t.name, t.tag, t.permission ?? '-', t.allowed ? 'yes' : 'no']),
    ];
    const widths = [0, 1, 2].map((i) => Math.max(...rows.map((row) => row[i]?.length ?? 0)));
    for (const row of rows) out(row.map((cell, i) => cell.padEnd(widths[i] ?? 0)).join('  ').trimEnd());
    return 0;
  } catch (error) {
    return didNotRun('ops tools', error, err);
  } finally {
    client.close();
  }
}

export async function printCall(
  name: string,
  flags: ServerFlags & { input: string },
  out: (line: string) => void,
  err: (line: string) => void,
): Promise<number> {
  const input = parseInput(flags.input);
  const client = clientFor(flags);
  try {
    const response = await client.call(name, input);
    out(JSON.stringify(response, null, 2));
    return response.is_error ? 1 : 0;
  } catch (error) {
    return didNotRun('ops call', error, err);
  } finally {
    client.close();
  }
}

function parseInput(text: string): Record<string, unknown> {
  let input: unknown;
  try {
    input = JSON.parse(text);
  } catch {
    throw new ConfigError(`--input is not valid JSON; pass an object, e.g. --input '{"project":"shop"}'`);
  }
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    throw new ConfigError(`--input must be a JSON object, e.g. --input '{"project":"shop"}'`);
  }
  return input as Record<string, unknown>;
}

function didNotRun(command: string, error: unknown, err: (line: string) => void): number {
  if (!(error instanceof AppError)) throw error;
  err(`${command}: ${error.message}`);
  return 2;
}
