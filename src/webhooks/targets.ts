// Where a hook may post: an http(s) address without credentials in it, and —
// unless AION_WEBHOOK_ALLOW_PRIVATE — only to public addresses, checked on
// the address each connection actually uses (a name that resolves to a
// private address, now or later, is refused as it connects).
import { BlockList, isIP, type LookupFunction } from 'node:net';
import { lookup } from 'node:dns';

const PRIVATE = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.168.0.0', 16],
] as const) {
  PRIVATE.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
] as const) {
  PRIVATE.addSubnet(network, prefix, 'ipv6');
}

/** Whether an address is loopback, private, link-local or unspecified (an IPv4 one mapped into IPv6 too). */
export function isPrivateAddress(address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
  if (mapped) return PRIVATE.check(mapped, 'ipv4');
  return PRIVATE.check(address, isIP(address) === 6 ? 'ipv6' : 'ipv4');
}

/** The URL's host as an address when it is one (`[::1]` → `::1`); else null. */
function literalAddress(url: URL): string | null {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  return isIP(host) ? host : null;
}

/** Why a hook may not post to `text`, in a sentence; null when it may. */
export function targetRefusal(text: string, allowPrivate: boolean): string | null {
  const url = URL.canParse(text) ? new URL(text) : null;
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) return `a webhook's url must be an http or https address, like https://hooks.example.com/aion; got ${text}`;
  if (url.username || url.password) return "a webhook's url may not carry a user name or password; put a token in its path or query instead";
  if (allowPrivate) return null;
  const address = literalAddress(url);
  if ((address && isPrivateAddress(address)) || url.hostname === 'localhost') {
    return `${url.hostname} is a loopback or private address, and this server posts webhooks only to public ones (AION_WEBHOOK_ALLOW_PRIVATE=1 allows them)`;
  }
  return null;
}

/** A refusal before connecting to a literal address that is private; null otherwise. */
export function literalRefusal(url: URL, allowPrivate: boolean): string | null {
  const address = literalAddress(url);
  return !allowPrivate && address && isPrivateAddress(address) ? `${address} is a private address; webhooks post only to public ones` : null;
}

/** DNS as usual, but a name that resolves to a private address fails to connect. */
export const publicOnlyLookup: LookupFunction = (hostname, options, callback) => {
  lookup(hostname, { ...options, all: true }, (error, addresses) => {
    if (error) return callback(error, '', 0);
    const refused = addresses.find((a) => isPrivateAddress(a.address));
    if (refused) return callback(new Error(`${hostname} resolves to the private address ${refused.address}; webhooks post only to public ones`), '', 0);
    if (options.all) return (callback as unknown as (e: null, all: typeof addresses) => void)(null, addresses);
    const [first] = addresses;
    if (!first) return callback(new Error(`${hostname} has no address`), '', 0);
    callback(null, first.address, first.family);
  });
};
