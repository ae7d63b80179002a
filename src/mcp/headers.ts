// The X-Aion-* headers that carry an MCP connection's settings over HTTP:
// `/mcp` reads them, and `ops mcp` sends them with each REST tool call so the
// executor enforces read-only and the tool filter itself, not only the proxy.
import type { IncomingHttpHeaders } from 'node:http';
import { toolList, type ConnectionSettings } from './settings.js';

const SETTING_HEADERS = {
  readOnly: 'x-aion-read-only',
  only: 'x-aion-tools',
  project: 'x-aion-project',
  environment: 'x-aion-environment',
} as const;

/** The settings an HTTP request's headers ask for; absent headers restrict nothing. */
export function settingsFromHeaders(headers: IncomingHttpHeaders): ConnectionSettings {
  return {
    readOnly: ['1', 'true', 'yes'].includes((single(headers[SETTING_HEADERS.readOnly]) ?? '').trim().toLowerCase()),
    only: toolList(single(headers[SETTING_HEADERS.only])),
    project: nonEmpty(single(headers[SETTING_HEADERS.project])),
    environment: nonEmpty(single(headers[SETTING_HEADERS.environment])),
  };
}

/** The restricting headers (read-only, tool filter) for a REST call on behalf of an MCP connection. */
export function restrictionHeaders(settings: Pick<ConnectionSettings, 'readOnly' | 'only'>): Record<string, string> {
  const headers: Record<string, string> = {};
  if (settings.readOnly) headers[SETTING_HEADERS.readOnly] = '1';
  if (settings.only) headers[SETTING_HEADERS.only] = [...settings.only].join(',');
  return headers;
}

function single(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value.join(',') : value;
}

function nonEmpty(value: string | undefined): string | null {
  const trimmed = value?.trim();
  return trimmed ? trimmed : null;
}
