// The turns running on this server, so `POST …/threads/{id}/cancel` reaches
// the one running a thread's turn: an agent's gets session/cancel, the
// built-in assistant's an aborted model call.
export class RunningTurns {
  private readonly cancels = new Map<string, () => void>();

  /** Registers how to cancel the thread's running turn; the returned function unregisters it. */
  register(threadId: string, cancel: () => void): () => void {
    this.cancels.set(threadId, cancel);
    return () => {
      if (this.cancels.get(threadId) === cancel) this.cancels.delete(threadId);
    };
  }

  /** Cancels the thread's running turn; false when none runs here. */
  cancel(threadId: string): boolean {
    const cancel = this.cancels.get(threadId);
    cancel?.();
    return cancel !== undefined;
  }
}
