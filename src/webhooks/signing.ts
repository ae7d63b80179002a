// How a receiver knows a delivery came from this Aion and was not replayed:
// `X-Aion-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">`
// under the hook's own secret (Stripe's scheme), signed afresh at each try.
import { createHmac, randomBytes } from 'node:crypto';

export const SIGNATURE_HEADER = 'X-Aion-Signature';
export const EVENT_HEADER = 'X-Aion-Event';
export const DELIVERY_HEADER = 'X-Aion-Delivery';

export function signature(secret: string, unixSeconds: number, body: string): string {
  const mac = createHmac('sha256', secret).update(`${unixSeconds}.${body}`).digest('hex');
  return `t=${unixSeconds},v1=${mac}`;
}

/** A new hook's signing secret: 32 random bytes, named as what it is. */
export function newSecret(): string {
  return `whsec_${randomBytes(32).toString('base64url')}`;
}
