// Random ids for the tab and its follows. `crypto.randomUUID` exists only in
// secure contexts (HTTPS or localhost); `getRandomValues` exists everywhere,
// so a console served over plain HTTP to another host still gets its ids.
export function randomId(): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join('');
}
