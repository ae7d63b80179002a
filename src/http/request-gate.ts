// What a request must still be when its write starts, and when the server
// takes requests at all. A write does not start for a request whose client
// has gone (its socket closed: a server waking from a stall finds many) or
// that arrived longer ago than the request bound (its client has likely
// given up and retried elsewhere); it answers 503, nothing changed. A write
// already running finishes or rolls back whole: the check is made once, first
// in its transaction. On SIGTERM the gate drains: /readyz fails at once, new
// requests get 503 with Retry-After, those in flight finish (within a bound).
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { AppError, WriteNotStarted } from '../errors.js';
import type { Db } from '../store/db.js';
import type { IdempotencyKeys } from '../store/idempotency-keys.js';
import type { BeforeWrite } from '../tools/executor.js';
import { heldKey } from './idempotency.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** Asked first in the write's transaction this request starts (Invocation.beforeWrite); made when a write asks for it. */
    readonly beforeWrite: BeforeWrite;
    /** When the request arrived (performance.now()): the request bound counts from here. */
    arrivedAt: number;
  }
}

/** What a load balancer or probe reads while the server drains: always answered. */
const PROBES = new Set(['/healthz', '/readyz']);
/** Seconds a refused client waits before sending again (to another server, through the balancer). */
const RETRY_AFTER_SECONDS = 1;

/**
 * Resolves once the event loop has polled its sockets again. A server woken
 * from a stall reads a request and its client's close in separate polls, and
 * the embedded store answers without one: without this, a request whose
 * client left during the stall would run its write before its close is read.
 */
function afterNextPoll(): Promise<void> {
  return new Promise((resolve) => setImmediate(() => setImmediate(resolve)));
}

export class RequestGate {
  private draining = false;
  private inFlight = 0;
  private idle: (() => void) | null = null;

  constructor(
    /** A write whose request arrived longer ago does not start. */
    private readonly queueLimitMs: number,
    private readonly keys: IdempotencyKeys,
  ) {}

  /** Whether the server takes requests: false from the moment it drains. */
  get ready(): boolean {
    return !this.draining;
  }

  /** Refuses new requests from now on and resolves once those in flight ended, or after `ms`. */
  async drain(ms: number): Promise<void> {
    this.draining = true;
    if (this.inFlight === 0) return;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      this.idle = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  }

  /** The hooks: arrival, the drain's refusal and count, the request's write check. */
  readonly plugin = fp(async (app: FastifyInstance) => {
    // Every request pays one number here; the check itself is made only for a request that writes.
    app.decorateRequest('arrivedAt', 0);
    const check = (request: FastifyRequest, tx: Db) => this.beforeWrite(request, tx);
    app.decorateRequest('beforeWrite', {
      getter(this: FastifyRequest): BeforeWrite {
        return (tx) => check(this, tx);
      },
    });
    app.addHook('onRequest', async (request, reply) => {
      request.arrivedAt = performance.now();
      if (this.draining && !PROBES.has(request.url.split('?')[0] ?? '')) {
        void reply.header('connection', 'close');
        throw new AppError('unavailable', 'this server is shutting down; send the request again: the load balancer sends it to another server', RETRY_AFTER_SECONDS);
      }
      this.inFlight++;
      reply.raw.once('close', () => {
        this.inFlight--;
        if (this.inFlight === 0) this.idle?.();
      });
    });
  });

  private async beforeWrite(request: FastifyRequest, tx: Db): Promise<void> {
    await afterNextPoll();
    const waited = performance.now() - request.arrivedAt;
    const gone = request.raw.socket.destroyed;
    if (gone || waited > this.queueLimitMs) {
      const why = gone ? 'its client closed the connection' : `it waited ${Math.round(waited)} ms, over the ${this.queueLimitMs} ms bound`;
      request.log.warn({ waitedMs: Math.round(waited), clientGone: gone }, `request abandoned before its write: ${why}; nothing was changed`);
      throw new WriteNotStarted(`the server did not start this write because ${why}; nothing was changed, so send it again`);
    }
    const held = heldKey(request);
    if (held && !(await this.keys.markApplied(tx, held))) {
      request.log.warn({ idempotencyKey: held.key }, 'request abandoned before its write: a retry with its Idempotency-Key took it over');
      throw new WriteNotStarted(`a retry with Idempotency-Key ${held.key} took this request over; nothing was changed by this one`);
    }
  }
}
