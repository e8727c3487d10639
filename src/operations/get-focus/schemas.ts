/** What getFocus answers: the agent's own schema, given its OpenAPI name by the route. */
import { z } from "zod";

export const FocusViewSchema = z.object({
  focus_limit: z.number().int(),
  focus: z.array(z.object({ node_id: z.number().int(), name: z.string(), key: z.string() })),
});
export type FocusView = z.infer<typeof FocusViewSchema>;
