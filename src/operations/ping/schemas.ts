/** What ping answers: the agent's own schema, given its OpenAPI name by the route. */
import { z } from "zod";

export const PingViewSchema = z.object({ ok: z.literal(true), agent_id: z.string() });
export type PingView = z.infer<typeof PingViewSchema>;
