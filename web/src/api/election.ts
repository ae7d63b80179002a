// Which tab of a browser leads (holds the one stream), two ways. With Web
// Locks (secure contexts: HTTPS or localhost) the browser decides: the tab
// holding the lock leads until it closes. Without them (plain HTTP to another
// host) the tabs decide among themselves over a BroadcastChannel: the leader
// says so every BEAT_MS; a tab that has heard no leader for SILENT_MS claims
// the lead in a new term; of two leaders, the later term wins (ties: the one
// leading longer, then the lower tab id), so a leader whose timers the browser held back (a hidden
// tab) yields to the one that took over meanwhile. A leader that closes says
// so, and the next takes over at once rather than after SILENT_MS.

/** How often the leader says it leads. */
export const BEAT_MS = 1000;
/** A leader unheard of this long is taken to be gone (hidden tabs' timers run at most once a second). */
export const SILENT_MS = 3500;
/** A new tab listens this long for a leader before it claims the lead. */
const FIRST_LISTEN_MS = 1500;

/** Called when this tab starts to lead; what it returns is called when it stops. */
export type Lead = () => () => void;

interface Beat {
  type: 'beat';
  tab: string;
  term: number;
  /** When this tab took the lead (one browser, one clock). */
  since: number;
}
interface Resign {
  type: 'resign';
  tab: string;
  term: number;
}
type Said = Beat | Resign;

type Rank = Omit<Beat, 'type'>;

/** Whether `a` outranks `b` as leader: the later term, then the one leading longer, then the lower tab id. */
function outranks(a: Rank, b: Rank): boolean {
  if (a.term !== b.term) return a.term > b.term;
  return a.since !== b.since ? a.since < b.since : a.tab < b.tab;
}

/** Leads by Web Lock `name` while `signal` is not aborted. */
function electByLock(name: string, lead: Lead, signal: AbortSignal): void {
  navigator.locks
    .request(name, { signal }, async () => {
      const stop = lead();
      await new Promise((resolve) => signal.addEventListener('abort', resolve, { once: true }));
      stop();
    })
    .catch(() => undefined);
}

/** Leads by agreement over the BroadcastChannel `name` while `signal` is not aborted. */
function electByChannel(name: string, tab: string, lead: Lead, signal: AbortSignal): void {
  const channel = new BroadcastChannel(name);
  let term = 0;
  /** Set while this tab leads: how to stop. */
  let stop: (() => void) | null = null;
  let since = 0;
  /** When a leader (another tab) was last heard of; a new tab first listens a while. */
  let heard = Date.now() - SILENT_MS + FIRST_LISTEN_MS;
  const say = (message: Said) => channel.postMessage(message);

  const stepDown = () => {
    stop?.();
    stop = null;
  };
  const claim = () => {
    term += 1;
    since = Date.now();
    stop = lead();
    say({ type: 'beat', tab, term, since });
  };

  channel.onmessage = ({ data }: MessageEvent<Said>) => {
    if (data.tab === tab) return;
    if (data.type === 'resign') {
      // The leader left: the tab with the lowest id takes over at once; the others hear it beat.
      if (data.term >= term && !stop) heard = Date.now() - SILENT_MS + jitter(tab);
      return;
    }
    if (stop && outranks({ tab, term, since }, data)) return void say({ type: 'beat', tab, term, since });
    term = Math.max(term, data.term);
    heard = Date.now();
    stepDown();
  };

  const timer = setInterval(() => {
    if (stop) return void say({ type: 'beat', tab, term, since });
    if (Date.now() - heard > SILENT_MS) claim();
  }, BEAT_MS / 4);

  signal.addEventListener(
    'abort',
    () => {
      clearInterval(timer);
      if (stop) say({ type: 'resign', tab, term });
      stepDown();
      channel.close();
    },
    { once: true },
  );
}

/** A short wait set by the tab's id, so that after a resignation the tabs do not all claim at once. */
function jitter(tab: string): number {
  return Number.parseInt(tab.slice(0, 2), 16) * 4;
}

/** Leads as `tab` among the tabs sharing `name` while `signal` is not aborted, by Web Lock where the browser has them. */
export function elect(name: string, tab: string, lead: Lead, signal: AbortSignal): void {
  if (typeof navigator.locks !== 'undefined') electByLock(name, lead, signal);
  else electByChannel(name, tab, lead, signal);
}
