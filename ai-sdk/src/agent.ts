/**
 * Which agent's memory a tool set or a model wrapper uses: an SDK client given as it is, or one
 * made from a base URL and a key (the SDK's own retries and timeouts apply).
 */
import { MemoryClient, type AgentClient, type ClientOptions } from "@agent-memory/sdk";

export type MemoryOptions = {
  /** The agent whose memory is read and written (1–64 of `A-Za-z0-9_.-`). */
  agentId: string;
} & ({ client: MemoryClient } | ClientOptions);

export function agentOf(options: MemoryOptions): AgentClient {
  const client = "client" in options ? options.client : new MemoryClient(options);
  return client.agent(options.agentId);
}
