import { z } from "zod";
import { AGENT_ID_PATTERN } from "../config/limits";
import type { Jurisdiction } from "./jurisdictions";

/**
 * Who an agent is: the tenant of the API key that addressed it and the agent id of the request's
 * path (never a body field). Together they name the agent's Durable Object and its registry row.
 * `jurisdiction`, the tenant's (read with its key), is where that object lives: the namespace it is
 * addressed in (src/agent/naming.ts), not part of who it is; absent: no jurisdiction.
 */
export interface AgentIdentity {
  tenantId: string;
  agentId: string;
  jurisdiction?: Jurisdiction;
}

/** A tenant id: what `npm run key:create -- --tenant` accepts, the same characters as an agent id. */
export const TenantIdSchema = z.string().regex(AGENT_ID_PATTERN, "a tenant id: 1–64 of A–Z a–z 0–9 _ . -, starting with a letter or digit");
