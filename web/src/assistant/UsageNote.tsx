// A thread's model tokens, shown discreetly once there are any (an agent's
// own model and the fake model report none).
import { useUsage } from './threads';

const compact = new Intl.NumberFormat(undefined, { notation: 'compact', maximumFractionDigits: 1 });

export function UsageNote({ threadId }: { threadId: string }) {
  const usage = useUsage(threadId).data;
  if (!usage) return null;
  const input = usage.input_tokens + usage.cache_creation_input_tokens + usage.cache_read_input_tokens;
  if (input + usage.output_tokens === 0) return null;
  const cached = usage.cache_read_input_tokens > 0 ? `, ${compact.format(usage.cache_read_input_tokens)} from cache` : '';
  return (
    <span className="usage muted small" title={`${usage.calls} model calls`}>
      {compact.format(input)} in{cached} · {compact.format(usage.output_tokens)} out tokens
    </span>
  );
}
