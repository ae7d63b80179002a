// What changes for an operator, whichever server changed it: their threads
// (the thread list and an open thread refresh from it) and the change
// requests of their projects (the top bar's count and the requests' pages).
import type { Operator } from '../access/operators.js';
import { changeRequestChangeOf } from '../change-requests/topics.js';
import type { Services } from '../services.js';
import { threadChangeOf } from '../turns/topics.js';
import { type Feed, untilAborted } from './feed.js';

export function changesFeed(services: Services, operator: Operator): Feed {
  return async (send, closed) => {
    const resync = () => send({ type: 'resync', data: {} });
    const unsubscribe = services.changes.subscribe((topic) => {
      if (topic === '*') return resync();
      const thread = threadChangeOf(topic, operator.id);
      if (thread) return send({ type: 'thread', data: thread });
      const request = changeRequestChangeOf(topic);
      if (!request) return;
      // Membership is read when a change comes (from memory), so a member added or removed meanwhile is heard.
      services.projects.find(operator, request.project).then(
        (member) => member && send({ type: 'change_request', data: request }),
        // The membership could not be read (the store went away): the client reads everything again.
        resync,
      );
    });
    try {
      await untilAborted(closed);
    } finally {
      unsubscribe();
    }
  };
}
