/**
 * Who an agent is: the tenant of the API key that addressed it and the agent id of the request's
 * path (never a body field). Together they name the agent's Durable Object and its registry row.
 */
export interface AgentIdentity {
  tenantId: string;
  agentId: string;
}
