// A thread's model tokens, shown discreetly once there are any; for a thread
// an ACP agent holds, what the agent reported of its own model (tokens, the
// context it fills, cost) beside them, and "not reported" for what it never
// reported — never a 0 it did not say.
import type { Usage } from '../../../src/wire/usage';
import { useUsage } from './threads';

const compact = new Intl.NumberFormat(undefined, { notation: 'compact', maximumFractionDigits: 1 });

export function UsageNote({ threadId }: { threadId: string }) {
  const usage = useUsage(threadId).data;
  if (!usage) return null;
  const input = usage.input_tokens + usage.cache_creation_input_tokens + usage.cache_read_input_tokens;
  const own =
    input + usage.output_tokens === 0 ? null : (
      <span className="usage muted small" title={`${usage.calls} model calls`}>
        {compact.format(input)} in{usage.cache_read_input_tokens > 0 ? `, ${compact.format(usage.cache_read_input_tokens)} from cache` : ''} · {compact.format(usage.output_tokens)} out tokens
      </span>
    );
  return (
    <>
      {own}
      {usage.agent && <AgentUsageNote usage={usage.agent} />}
    </>
  );
}

function AgentUsageNote({ usage }: { usage: NonNullable<Usage['agent']> }) {
  const tokens =
    usage.input_tokens === null && usage.output_tokens === null
      ? 'tokens not reported'
      : `${usage.input_tokens === null ? 'in not reported' : `${compact.format(usage.input_tokens)} in`} · ${usage.output_tokens === null ? 'out not reported' : `${compact.format(usage.output_tokens)} out`} tokens`;
  const context = usage.context ? `context ${compact.format(usage.context.used)} of ${compact.format(usage.context.size)}` : 'context not reported';
  const cost = usage.cost
    ? usage.cost.map((c) => formatCost(c.amount, c.currency)).join(' + ')
    : 'cost not reported';
  return (
    <span className="usage muted small" data-testid="agent-usage" title={`What ${usage.name} reported of its own model, over ${usage.reported_turns} turns`}>
      {tokens} · {context} · {cost}
    </span>
  );
}

/** A currency code as money; another unit ("credits") as a number and its unit. */
function formatCost(amount: number, currency: string): string {
  try {
    return new Intl.NumberFormat(undefined, { style: 'currency', currency, maximumFractionDigits: 4 }).format(amount);
  } catch {
    return `${amount} ${currency}`;
  }
}
