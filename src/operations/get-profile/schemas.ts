/**
 * The agent's own types of its profile (docs/design.md, "The profile"), served by its route under
 * OpenAPI names and shown in the context block. Kept apart from the task so that reading them pulls
 * in nothing but zod and the vocabulary.
 */
import { z } from "zod";
import { LocalePreferenceShape } from "../../vocabulary/locales";

/** The profile's length when the request does not say (code points of its text). */
export const DEFAULT_PROFILE_CHARS = 2_000;
export const MIN_PROFILE_CHARS = 100;
export const MAX_PROFILE_CHARS = 20_000;
/** The longest participant name a profile request may give. */
export const MAX_PARTICIPANT_NAME = 128;

export const ProfileSchema = z.object({
  /** Whom the profile is about; null: every participant. */
  participant: z.string().nullable(),
  participants: z.array(z.object({ name: z.string(), messages: z.number().int() })),
  /** What the profile says, each line backed by the memories it comes from. */
  lines: z.array(z.object({ participant: z.string(), text: z.string(), memory_ids: z.array(z.number().int()) })),
  /** The entities the lines' memories are about, those of the most lines first. */
  entities: z.array(
    z.object({ node_id: z.number().int(), name: z.string(), importance: z.number(), memory_ids: z.array(z.number().int()) }),
  ),
  focus: z.array(z.object({ node_id: z.number().int(), name: z.string() })),
});

export const ProfileQuerySchema = z
  .object({
    ...LocalePreferenceShape,
    participant: z.string().min(1).max(MAX_PARTICIPANT_NAME).optional(),
    max_chars: z.number().int().min(MIN_PROFILE_CHARS).max(MAX_PROFILE_CHARS).optional(),
  })
  .strict();

export const ProfileResultSchema = ProfileSchema.extend({
  /** The profile as text, as the context block shows it; never longer than `max_chars`. */
  text: z.string(),
  max_chars: z.number().int(),
});
export type ProfileResult = z.infer<typeof ProfileResultSchema>;
