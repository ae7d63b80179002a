// The X-Aion-* headers that carry an MCP connection's settings over HTTP:
// `/mcp` reads them, the REST tool routes too (for any caller), and `ops mcp`
// sends them with each call so the executor enforces read-only and the tool
// filter itself, not only the proxy. Names and values compare
// case-insensitively; a read-only value that is neither yes nor no is refused,
// never taken for no.
import type { IncomingHttpHeaders } from 'node:http';
import { invalid } from '../errors.js';
import { toolList, type ConnectionSettings } from './settings.js';

const SETTING_HEADERS = {
  readOnly: 'x-aion-read-only',
  only: 'x-aion-tools',
  project: 'x-aion-project',
  environment: 'x-aion-environment',
  onlyEnvironment: 'x-aion-only-environment',
} as const;

const YES = new Set(['1', 'true', 'yes', 'on']);
const NO = new Set(['', '0', 'false', 'no', 'off']);

/** The settings an HTTP request's headers ask for; absent headers restrict nothing. */
export function settingsFromHeaders(headers: IncomingHttpHeaders): ConnectionSettings {
  const onlyEnvironment = nonEmpty(single(headers[SETTING_HEADERS.onlyEnvironment]));
  return {
    readOnly: readOnlyOf(single(headers[SETTING_HEADERS.readOnly])),
    only: toolList(single(headers[SETTING_HEADERS.only])),
    project: nonEmpty(single(headers[SETTING_HEADERS.project])),
    // The fence fills too: a call that leaves the environment out lands inside it.
    environment: nonEmpty(single(headers[SETTING_HEADERS.environment])) ?? onlyEnvironment,
    onlyEnvironment,
  };
}

/** The restricting headers (read-only, tool filter, environment fence) for a REST call on behalf of an MCP connection. */
export function restrictionHeaders(settings: Pick<ConnectionSettings, 'readOnly' | 'only' | 'onlyEnvironment'>): Record<string, string> {
  const headers: Record<string, string> = {};
  if (settings.readOnly) headers[SETTING_HEADERS.readOnly] = '1';
  if (settings.only) headers[SETTING_HEADERS.only] = [...settings.only].join(',');
  if (settings.onlyEnvironment) headers[SETTING_HEADERS.onlyEnvironment] = settings.onlyEnvironment;
  return headers;
}

function readOnlyOf(value: string | undefined): boolean {
  const said = (value ?? '').trim().toLowerCase();
  if (YES.has(said)) return true;
  if (NO.has(said)) return false;
  throw invalid('X-Aion-Read-Only must be 1 (read-only) or 0; true/false, yes/no and on/off are read as well');
}

function single(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value.join(',') : value;
}

function nonEmpty(value: string | undefined): string | null {
  const trimmed = value?.trim();
  return trimmed ? trimmed : null;
}
