// Why an agent could not start (command not found, failed to initialize or to
// open a session): the sentence `GET /assistant/agents` and a 503 give. Apart
// from the process code, so the host can tell it without loading the ACP SDK.
export class AgentStartError extends Error {}
