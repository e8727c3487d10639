/**
 * The agent's own types of its profile (docs/design.md, "Context for prompts"), served by its route
 * under OpenAPI names and shown in the context block. Kept apart from the task so that reading them
 * pulls in nothing but zod and the vocabulary.
 */
import { z } from "zod";
import { LocalePreferenceShape } from "../../vocabulary/locales";

export const ProfileSchema = z.object({
  participants: z.array(z.object({ name: z.string(), messages: z.number().int() })),
  entities: z.array(
    z.object({
      node_id: z.number().int(),
      name: z.string(),
      importance: z.number(),
      memories: z.array(z.object({ node_id: z.number().int(), content: z.string(), strength: z.number() })),
    }),
  ),
  focus: z.array(z.object({ node_id: z.number().int(), name: z.string() })),
});

export const ProfileQuerySchema = z.object(LocalePreferenceShape).strict();

export const ProfileResultSchema = ProfileSchema.extend({
  /** The profile as text, as the context block shows it. */
  text: z.string(),
});
