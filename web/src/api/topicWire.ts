// What the tabs of one browser tell each other about the stream their leader
// keeps (api/streamKeeper): each tab says which topics it wants, the leader
// says what came for them.
import type { ServerEvent } from './events';

/** One topic a tab follows: `key` is the follow's own, `resume` where a reopened stream goes on from. */
export interface Want {
  key: string;
  spec: string;
  resume: string | null;
}

/** Why a topic will say nothing more: the server's status and sentence, when it refused. */
export interface Refusal {
  status?: number;
  error: string;
}

/** What the leader delivers to the tabs (its own included); each tab takes what carries its keys. */
export type Delivery =
  | { type: 'event'; keys: string[]; event: ServerEvent }
  /** The stream listens for these keys now (again, for a key that heard `open` before: events may have been missed). */
  | { type: 'open'; keys: string[] }
  | { type: 'end'; keys: string[]; refusal: Refusal | null }
  /** Whether a stream carries the topics (false: the tabs are read again every few seconds instead). */
  | { type: 'live'; live: boolean };

/** What tabs ask of the leader. */
export type Request = { type: 'want'; tab: string; wants: Want[] } | { type: 'bye'; tab: string } | { type: 'hello' };

/** Where a reopened stream goes on: the topic with its resume point in place of the one it was asked with. */
export function resumed(want: Want): string {
  if (want.resume === null) return want.spec;
  return `${want.spec.split('@')[0] ?? want.spec}@${want.resume}`;
}

/** The resume point an event moves `spec` to: a turn's event id, a context's revision; null when it does not. */
export function resumeAfter(spec: string, event: ServerEvent): string | null {
  if (spec.startsWith('turn:')) return event.id;
  if (spec.startsWith('context:') && event.event === 'context') {
    const revision = (JSON.parse(event.data) as { revision?: unknown }).revision;
    return typeof revision === 'number' ? String(revision) : null;
  }
  return null;
}

/** Topics whose followers all hear the same events (nothing to resume: a reopened stream reads everything again). */
export function isShared(spec: string): boolean {
  return spec === 'changes' || spec.startsWith('project:');
}

/**
 * What one entry of the stream may serve for every tab that wants it: the same events (changes, a project), or a
 * thread's context, whose revisions each follower takes from where it is (the entry starts at the earliest). A
 * turn's followers each start at their own event, so each has its own entry. Null: not shared.
 */
export function shareKeyOf(spec: string): string | null {
  if (isShared(spec)) return spec;
  if (spec.startsWith('context:')) return spec.split('@')[0] ?? spec;
  return null;
}

/** The earlier of two topics with one share key: the context revision furthest behind (the same topic otherwise). */
export function earlier(topic: string, other: string): string {
  return contextRevision(other) < contextRevision(topic) ? other : topic;
}

function contextRevision(topic: string): number {
  const after = Number(topic.split('@')[1]);
  return Number.isFinite(after) ? after : 0;
}

/**
 * Whether a follower at `resume` heard the event whose resume point is `point` (resumeAfter, read once per event):
 * a reopened stream overlaps the one before it (a turn's events), or the entry it shares started behind it (a
 * context's revisions).
 */
export function alreadyHeard(spec: string, resume: string | null, point: string | null): boolean {
  if (point === null) return false;
  if (spec.startsWith('context:')) return Number(point) <= (resume === null ? contextRevision(spec) : Number(resume));
  if (resume === null) return false;
  const [turn, seq] = point.split(':');
  const [heardTurn, heardSeq] = resume.split(':');
  return turn === heardTurn && Number(seq) <= Number(heardSeq);
}
