// The audit page's filters, kept in the address (so a filtered view can be
// shared and survives a reload), and as read_audit's input.

export interface AuditFilter {
  /** Reads are hidden unless asked for: the log is mostly the console's own reads. */
  reads: boolean;
  tool: string;
  operator: string;
  environment: string;
  outcome: string;
  /** Days as the date inputs give them (yyyy-mm-dd), both included; '' for open. */
  since: string;
  until: string;
}

export const FILTER_KEYS = ['reads', 'tool', 'operator', 'environment', 'outcome', 'since', 'until'] as const;

export function filterOf(search: URLSearchParams): AuditFilter {
  return {
    reads: search.get('reads') === '1',
    tool: search.get('tool') ?? '',
    operator: search.get('operator') ?? '',
    environment: search.get('environment') ?? '',
    outcome: search.get('outcome') ?? '',
    since: search.get('since') ?? '',
    until: search.get('until') ?? '',
  };
}

export function searchOf(filter: AuditFilter): Record<string, string> {
  const search: Record<string, string> = {};
  for (const key of FILTER_KEYS) {
    const value = filter[key];
    if (value === true) search[key] = '1';
    else if (typeof value === 'string' && value) search[key] = value;
  }
  return search;
}

/** Local midnight of a yyyy-mm-dd day, `days` later, as the tool's date-time. */
const midnight = (day: string, days = 0) => {
  const at = new Date(`${day}T00:00`);
  at.setDate(at.getDate() + days);
  return at.toISOString();
};

export function auditInput(filter: AuditFilter): Record<string, unknown> {
  return {
    ...(filter.reads ? {} : { changes_only: true }),
    ...(filter.tool ? { tool: filter.tool } : {}),
    ...(filter.operator ? { operator: filter.operator } : {}),
    ...(filter.environment ? { environment: filter.environment } : {}),
    ...(filter.outcome ? { outcome: filter.outcome } : {}),
    ...(filter.since ? { since: midnight(filter.since) } : {}),
    // Until the end of that day.
    ...(filter.until ? { until: midnight(filter.until, 1) } : {}),
  };
}
