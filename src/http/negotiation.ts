// Content negotiation for the live endpoint: which format (Accept) and which
// encoding (Accept-Encoding) a client takes, and whether its If-None-Match
// names an ETag.
import type { Encoding, Format } from '../domain/live-bodies.js';

interface Preference {
  name: string;
  q: number;
}

function preferences(header: string | undefined): Preference[] {
  if (!header) return [];
  return header.split(',').map((part) => {
    const [name = '', ...parameters] = part.split(';');
    const q = parameters.map((p) => /^\s*q\s*=\s*([\d.]+)\s*$/i.exec(p)?.[1]).find((v) => v !== undefined);
    return { name: name.trim().toLowerCase(), q: q === undefined ? 1 : Number(q) };
  });
}

/** YAML when the client names it at least as gladly as JSON; JSON otherwise (and for anything else it asks). */
export function formatFor(accept: string | undefined): Format {
  let yaml = 0;
  let json = 0;
  for (const { name, q } of preferences(accept)) {
    if (name === 'application/yaml' || name === 'application/x-yaml' || name === 'text/yaml') yaml = Math.max(yaml, q);
    else if (name === 'application/json' || name === 'application/*' || name === '*/*') json = Math.max(json, q);
  }
  return yaml > 0 && yaml >= json ? 'yaml' : 'json';
}

/** br, else gzip, when the client accepts it; identity otherwise. */
export function encodingFor(acceptEncoding: string | undefined): Encoding {
  const accepted = new Map<string, number>();
  for (const { name, q } of preferences(acceptEncoding)) accepted.set(name, q);
  const takes = (name: string) => (accepted.get(name) ?? accepted.get('*') ?? 0) > 0;
  if (takes('br')) return 'br';
  if (takes('gzip')) return 'gzip';
  return 'identity';
}

/** Whether If-None-Match names this ETag (weakly compared) or is `*`. */
export function matchesETag(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header.split(',').some((tag) => {
    const trimmed = tag.trim();
    return trimmed === '*' || trimmed.replace(/^W\//, '') === etag;
  });
}
