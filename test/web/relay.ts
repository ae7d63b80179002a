// A loopback TCP relay between the browser and the server, which a test cuts
// (every connection dropped, nothing listening: an outage) and restores, or
// holds (connections stay up, nothing the browser sends goes on: a network
// that silently stalls) and releases (what was held goes on, in order).
import net from 'node:net';

export interface Relay {
  origin: string;
  cut(): Promise<void>;
  restore(): Promise<void>;
  hold(): void;
  release(): void;
  close(): Promise<void>;
}

/** A loopback TCP relay to `target` on a port of its own. */
export async function relay(target: string): Promise<Relay> {
  const to = new URL(target);
  const sockets = new Set<net.Socket>();
  let held: (() => void)[] | null = null;
  const server = net.createServer((client) => {
    const upstream = net.connect(Number(to.port), to.hostname);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      socket.on('error', () => socket.destroy());
    }
    client.on('data', (chunk) => (held ? held.push(() => upstream.write(chunk)) : upstream.write(chunk)));
    client.on('end', () => (held ? held.push(() => upstream.end()) : upstream.end()));
    upstream.pipe(client);
  });
  const listen = (port: number) => new Promise<number>((resolve) => server.listen(port, '127.0.0.1', () => resolve((server.address() as net.AddressInfo).port)));
  const port = await listen(0);
  const stop = () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      sockets.forEach((socket) => socket.destroy());
    });
  return {
    origin: `http://127.0.0.1:${port}`,
    cut: stop,
    restore: async () => {
      await listen(port);
    },
    hold: () => {
      held ??= [];
    },
    release: () => {
      const waiting = held ?? [];
      held = null;
      waiting.forEach((send) => send());
    },
    close: () => (server.listening ? stop() : Promise.resolve()),
  };
}
