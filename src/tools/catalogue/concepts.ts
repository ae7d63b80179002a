// Explaining the console's concepts.
import { CONCEPTS, findConcept } from '../../domain/concepts.js';
import { notFound } from '../../errors.js';
import { withInput } from '../types.js';

export const conceptTools = [
  withInput({
    type: 'object',
    properties: { concept: { type: 'string', enum: CONCEPTS.map((c) => c.id), description: 'The concept id.' } },
    required: ['concept'],
    additionalProperties: false,
  }).define({
    name: 'explain',
    description: "Explain one of the console's concepts (project, deployment, secret, role, …) in a few sentences.",
    permission: null,
    tag: 'read',
    secretFields: [],
    scope: 'none',
    run: async (_ctx, input) => {
      const concept = findConcept(input.concept);
      if (!concept) throw notFound(`no such concept: ${input.concept}`);
      return { ...concept };
    },
  }),
];
