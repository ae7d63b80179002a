import type { ThreadResponse } from '../../../src/wire/thread';

/** What the panel calls a conversation: its title, or "New conversation" before its first message names it. */
export const threadTitle = (thread: ThreadResponse) => thread.title || 'New conversation';
