// The tabs of one browser signed in as one operator share one stream: the
// leading tab (api/election: by Web Lock where the browser has them, else by
// agreement over a BroadcastChannel) keeps it (api/streamKeeper) and the
// others reach it over a BroadcastChannel named for the operator's token.
// When the leader's tab closes, another tab leads and opens the stream again
// with every tab's topics.
import { elect } from './election';
import { randomId } from './randomId';
import { StreamKeeper } from './streamKeeper';
import type { Delivery, Request, Want } from './topicWire';

export interface Leader {
  /** This tab wants these topics now. */
  want(wants: Want[]): void;
  close(): void;
}

/**
 * The name of the channel and lock: a digest of the token, which itself stays
 * in the tab. SHA-256 where the page has `crypto.subtle` (secure contexts);
 * elsewhere a 128-bit FNV-1a, which only has to keep two tokens' tabs apart
 * (the name never leaves the browser's own origin).
 */
async function nameFor(token: string): Promise<string> {
  const bytes = new TextEncoder().encode(token);
  const digest = typeof crypto.subtle !== 'undefined' ? new Uint8Array(await crypto.subtle.digest('SHA-256', bytes)) : fnv1a128(bytes);
  return `aion-stream:${Array.from(digest.slice(0, 16), (b) => b.toString(16).padStart(2, '0')).join('')}`;
}

function fnv1a128(bytes: Uint8Array): Uint8Array {
  const prime = (1n << 88n) + 0x13bn;
  const mask = (1n << 128n) - 1n;
  let hash = 0x6c62272e07bb014262b821756295c58dn;
  for (const byte of bytes) hash = ((hash ^ BigInt(byte)) * prime) & mask;
  return Uint8Array.from({ length: 16 }, (_, i) => Number((hash >> BigInt(8 * (15 - i))) & 0xffn));
}

export function shareStream(token: string, receive: (delivery: Delivery) => void): Leader {
  const tab = randomId();
  if (typeof BroadcastChannel === 'undefined') {
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
    elect(
      `${name}:lead`,
      tab,
      () => {
        const leading = new StreamKeeper((delivery) => {
          receive(delivery);
          post(delivery);
        });
        keeper = leading;
        leading.want(tab, wants);
        // The others tell the new leader what they want.
        post({ type: 'hello' });
        return () => {
          if (keeper === leading) keeper = null;
          leading.close();
        };
      },
      closed.signal,
    );
  });
  // A tab going for good hands the lead on at once (a page kept for Back keeps it until it is dropped).
  const gone = (event: PageTransitionEvent) => {
    leave();
    if (!event.persisted) closed.abort();
  };
  window.addEventListener('pagehide', gone);

  return {
    want(next) {
      wants = next;
      if (keeper) keeper.want(tab, next);
      else post({ type: 'want', tab, wants: next });
    },
    close() {
      leave();
      window.removeEventListener('pagehide', gone);
      closed.abort();
      channel?.close();
    },
  };
}
