// The tabs of one browser signed in as one operator share one stream: the tab
// holding a Web Lock named for the operator's token keeps it (api/streamKeeper)
// and the others reach it over a BroadcastChannel of the same name. When the
// leader's tab closes, the lock passes to another tab, which opens the stream
// again with every tab's topics. Without Web Locks (a page not served over
// HTTPS or from localhost) each tab keeps a stream of its own.
import { StreamKeeper } from './streamKeeper';
import type { Delivery, Request, Want } from './topicWire';

export interface Leader {
  /** This tab wants these topics now. */
  want(wants: Want[]): void;
  close(): void;
}

/** The name of the lock and channel: a digest of the token, which itself stays in the tab. */
async function nameFor(token: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(token));
  return `aion-stream:${Array.from(new Uint8Array(digest).slice(0, 16), (b) => b.toString(16).padStart(2, '0')).join('')}`;
}

export function shareStream(token: string, receive: (delivery: Delivery) => void): Leader {
  const tab = crypto.randomUUID();
  const canShare = typeof navigator.locks !== 'undefined' && typeof BroadcastChannel !== 'undefined' && typeof crypto.subtle !== 'undefined';
  if (!canShare) {
    const keeper = new StreamKeeper(receive);
    return { want: (wants) => keeper.want(tab, wants), close: () => keeper.close() };
  }
  const closed = new AbortController();
  let wants: Want[] = [];
  let keeper: StreamKeeper | null = null;
  let channel: BroadcastChannel | null = null;
  const post = (message: Request | Delivery) => channel?.postMessage(message);
  const leave = () => post({ type: 'bye', tab });

  void nameFor(token).then((name) => {
    if (closed.signal.aborted) return;
    channel = new BroadcastChannel(name);
    channel.onmessage = ({ data }: MessageEvent<Request | Delivery>) => {
      if (data.type === 'hello') return void (keeper || post({ type: 'want', tab, wants }));
      if (data.type === 'want') return keeper?.want(data.tab, data.wants);
      if (data.type === 'bye') return keeper?.forget(data.tab);
      receive(data);
    };
    post({ type: 'want', tab, wants });
    navigator.locks
      .request(name, { signal: closed.signal }, async () => {
        const leading = new StreamKeeper((delivery) => {
          receive(delivery);
          post(delivery);
        });
        keeper = leading;
        leading.want(tab, wants);
        // The others tell the new leader what they want.
        post({ type: 'hello' });
        await new Promise((resolve) => closed.signal.addEventListener('abort', resolve, { once: true }));
        keeper = null;
        leading.close();
      })
      .catch(() => undefined);
  });
  window.addEventListener('pagehide', leave);

  return {
    want(next) {
      wants = next;
      if (keeper) keeper.want(tab, next);
      else post({ type: 'want', tab, wants: next });
    },
    close() {
      leave();
      window.removeEventListener('pagehide', leave);
      closed.abort();
      channel?.close();
    },
  };
}
