/**
 * The areas of the API, in order (docs/design.md, "Integration surfaces"): an operation names its
 * area as its route's tag. The OpenAPI document lists them as its tags, and src/routes/index.ts
 * lists the operations area by area (GET /v1/tools its tools, the document its paths), each area's
 * by operationId.
 */
export const AREAS = [
  { name: "memory", description: "Remember conversations, recall and search memories, read the network." },
  { name: "context", description: "A context block for a prompt, the profile, episodes." },
  { name: "config", description: "The agent's parameters and compression cycles." },
  { name: "memories", description: "Explicit memories: write, read, correct, forget, list." },
  { name: "sessions", description: "The conversations memories came from: list them, forget one." },
  { name: "links", description: "Explicit links between memories, reports of the memories used, entity merges." },
  { name: "tasks", description: "Queued writes and their results." },
  { name: "agents", description: "The agents of a tenant; deleting one." },
  { name: "transfer", description: "An agent's whole memory as JSON Lines: export and import." },
  { name: "keys", description: "The tenant's API keys: listing them, revoking one." },
  { name: "integration", description: "Function-calling tools and the MCP server over the same operations." },
  { name: "service", description: "Liveness." },
] as const;
