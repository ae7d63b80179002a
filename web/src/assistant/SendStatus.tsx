// A message sent from this tab that the server has not heard of yet: it is
// said to be on its way, and after a few seconds that it is not sent yet (a
// browser out of connections, a network down) — never that the assistant works.
import { useEffect, useState } from 'react';

/** A send unheard of this long says it waits for the connection. */
export const NOT_SENT_AFTER_MS = 3000;

export function SendStatus({ since }: { since: number }) {
  const [now, setNow] = useState(Date.now);
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 500);
    return () => clearInterval(timer);
  }, []);
  return (
    <p className="working" role="status">
      {now - since < NOT_SENT_AFTER_MS ? 'Sending…' : 'Not sent yet — waiting for the connection.'}
    </p>
  );
}
