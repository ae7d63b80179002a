// Searching the operator's conversations in the list the tab holds (GET
// /assistant/threads answers every thread, whole): a conversation matches
// when each word typed is in its title or in one of its messages, in any
// case. Empty ones are left out: there is nothing in them to find.
import type { ThreadResponse } from '../../../src/wire/thread';

export interface Found {
  thread: ThreadResponse;
  /** Where the first word stands in a message, with some words around it; null when only the title matched. */
  excerpt: { before: string; match: string; after: string } | null;
}

const AROUND = 40;

export function searchThreads(threads: readonly ThreadResponse[], query: string): Found[] {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  return threads.flatMap((thread) => {
    if (thread.messages.length === 0) return [];
    const texts = [thread.title, ...thread.messages.map((m) => m.text)].map((t) => t.toLowerCase());
    if (!words.every((word) => texts.some((text) => text.includes(word)))) return [];
    return [{ thread, excerpt: words[0] && !thread.title.toLowerCase().includes(words[0]) ? excerptOf(thread, words[0]) : null }];
  });
}

function excerptOf(thread: ThreadResponse, word: string): Found['excerpt'] {
  for (const { text } of thread.messages) {
    const at = text.toLowerCase().indexOf(word);
    if (at < 0) continue;
    const flat = (part: string) => part.replace(/\s+/g, ' ');
    const start = Math.max(0, at - AROUND);
    const end = Math.min(text.length, at + word.length + AROUND);
    return {
      before: `${start > 0 ? '…' : ''}${flat(text.slice(start, at))}`,
      match: text.slice(at, at + word.length),
      after: `${flat(text.slice(at + word.length, end))}${end < text.length ? '…' : ''}`,
    };
  }
  return null;
}
