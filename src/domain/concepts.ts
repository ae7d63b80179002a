// The concepts screens declare and the `explain` tool explains: each a title
// and a short explanation, written for the operator reading the console.

export interface Concept {
  id: string;
  title: string;
  explanation: string;
}

export const CONCEPTS: readonly Concept[] = [
  {
    id: 'project',
    title: 'Project',
    explanation:
      'A project holds the configuration of one service or product: its documents, its environments, their secrets, and the members who may work on it, each with a role.',
  },
  {
    id: 'environment',
    title: 'Environment',
    explanation:
      'An environment (staging, production, …) is where a project’s documents go live. Each has its own secrets and its own history of deployments.',
  },
  {
    id: 'protected-environment',
    title: 'Protected environment',
    explanation:
      'A protected environment, like production, accepts deployments and secret changes only from operators and admins; developers may change unprotected ones.',
  },
  {
    id: 'document',
    title: 'Document',
    explanation:
      'A document is one YAML (or JSON) file of configuration at a path in a project, such as app.yaml. Saving it makes a new revision; deploying a revision puts it live.',
  },
  {
    id: 'revision',
    title: 'Revision',
    explanation:
      'A revision (r1, r2, …) is one saved version of a document, with its author and time. A save names the revision it was based on, so nobody overwrites a change they have not seen.',
  },
  {
    id: 'check',
    title: 'Check',
    explanation:
      'Checking a document for an environment lists its problems with line and column: YAML errors, duplicate keys, schema violations (aion.schema.yaml), malformed or missing secret references. No problems means it would deploy.',
  },
  {
    id: 'deployment',
    title: 'Deployment',
    explanation:
      'A deployment puts one revision of a document live in one environment, only if it checks clean there. Services read the live document, with secrets resolved, from the live endpoint.',
  },
  {
    id: 'rollback',
    title: 'Rollback',
    explanation:
      'A rollback deploys again the revision that was live before the current one, as a new deployment, so the history stays whole.',
  },
  {
    id: 'secret',
    title: 'Secret',
    explanation:
      'A secret is a named value kept encrypted per environment. Documents refer to it as ${secret:NAME}; only the live endpoint resolves it. Nobody reads a value back, the assistant included.',
  },
  {
    id: 'role',
    title: 'Role',
    explanation:
      'A role says what a member may do in a project: viewers read; developers also write documents and deploy or set secrets on unprotected environments; operators also deploy to protected ones and read the audit log; admins also manage environments and members.',
  },
  {
    id: 'thread',
    title: 'Thread',
    explanation:
      'A thread is one conversation with the assistant, opened on a project and environment; what the assistant leaves out of a tool call is filled from that scope.',
  },
  {
    id: 'proposal',
    title: 'Proposal',
    explanation:
      'A proposal is a change the assistant asks to make. Nothing happens until you accept it; it then runs with your permissions, and is audited.',
  },
  {
    id: 'conversation',
    title: 'Conversation',
    explanation:
      'A conversation is a thread whose operator shares what the console shows — the screen and the open document — so an agent can read it and edit the document in the editor.',
  },
];

export function findConcept(idOrTitle: string): Concept | undefined {
  const key = idOrTitle.trim().toLowerCase();
  return CONCEPTS.find((c) => c.id === key || c.title.toLowerCase() === key);
}
