// When a message was stored, under it: the time today, the day and time
// before; the full date and time on hover.
import { shortTime } from '../ui/time';

export function MessageTime({ at, role }: { at: string; role: 'user' | 'assistant' }) {
  return (
    <p className={`message-time ${role}`}>
      <time dateTime={at} title={new Date(at).toLocaleString()}>
        {shortTime(at)}
      </time>
    </p>
  );
}
