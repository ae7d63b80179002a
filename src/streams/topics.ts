// The topics one multiplexed stream may follow, named as text in its query:
//   changes                      the caller's threads and change requests
//   project:<slug>               a project's changes
//   turn:<thread>[@<turn>:<seq>] a thread's running turn, after that event
//   context:<thread>@<revision>  a thread's shared context past that revision
import type { Operator } from '../access/operators.js';
import { invalid } from '../errors.js';
import type { Services } from '../services.js';
import { changesFeed } from './changes-feed.js';
import type { Feed } from './feed.js';
import { openContextFeed } from './context-feed.js';
import { openProjectFeed } from './project-feed.js';
import { cursorOf, openTurnFeed } from './turn-feed.js';

/** A stream follows at most this many topics: a browser's tabs together need far fewer. */
export const MAX_TOPICS = 64;
export const TOPIC_MAX_LENGTH = 200;

export type TopicOpener = (services: Services, operator: Operator) => Promise<Feed>;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** What following `topic` opens; an unknown or malformed name is refused (422) before the stream opens. */
export function topicOpener(topic: string): TopicOpener {
  const colon = topic.indexOf(':');
  const kind = colon < 0 ? topic : topic.slice(0, colon);
  const rest = topic.slice(colon + 1);
  if (topic === 'changes') return async (services, operator) => changesFeed(services, operator);
  if (kind === 'project' && rest) return (services, operator) => openProjectFeed(services, operator, rest);
  const [thread = '', after] = rest.split('@');
  if (kind === 'turn' && UUID.test(thread)) {
    const cursor = after === undefined ? null : cursorOf(after);
    if (after === undefined || cursor) return (services, operator) => openTurnFeed(services, operator, thread, cursor);
  }
  if (kind === 'context' && UUID.test(thread) && after !== undefined && /^\d{1,9}$/.test(after)) {
    return (services, operator) => openContextFeed(services, operator, thread, Number(after));
  }
  throw invalid(`"${topic}" names no topic: follow changes, project:<slug>, turn:<thread>[@<turn>:<seq>] or context:<thread>@<revision>`);
}
