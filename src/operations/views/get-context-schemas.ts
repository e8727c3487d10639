/**
 * The agent's own types of the context reads (docs/design.md, "Context for prompts"): the profile and the context
 * block, served by the HTTP layer under OpenAPI names. Kept apart from the runners so that reading
 * them pulls in nothing but zod and the vocabulary.
 */
import { z } from "zod";
import { LOCALES } from "../../vocabulary/locales";
import { ConversationTurnSchema } from "../../vocabulary/message";

export const CONTEXT_SECTIONS = ["memories", "episodes", "profile", "traces"] as const;
export const DEFAULT_CONTEXT_BUDGET = 1_000;
export const MAX_CONTEXT_BUDGET = 32_000;
/** The smallest budget that can hold a header and one short line. */
export const MIN_CONTEXT_BUDGET = 20;
/** Messages a context request may carry (only the latest turns build the query). */
export const MAX_CONTEXT_MESSAGES = 50;

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

/** The labels' language as the request states it (src/agent/label-locale.ts decides). */
const LocalePreferenceShape = { locale: z.enum(LOCALES).optional(), accept_language: z.enum(LOCALES).optional() };

export const ProfileQuerySchema = z
  .object({
    ...LocalePreferenceShape,
    participant: z.string().min(1).max(MAX_PARTICIPANT_NAME).optional(),
    max_chars: z.number().int().min(MIN_PROFILE_CHARS).max(MAX_PROFILE_CHARS).optional(),
  })
  .strict();
export type ProfileQuery = z.infer<typeof ProfileQuerySchema>;

export const ProfileResultSchema = ProfileSchema.extend({
  /** The profile as text, as the context block shows it; never longer than `max_chars`. */
  text: z.string(),
  max_chars: z.number().int(),
});
export type ProfileResult = z.infer<typeof ProfileResultSchema>;

export const ContextQuerySchema = z
  .object({
    query: z.string().min(1).max(2000).optional(),
    messages: z.array(ConversationTurnSchema).min(1).max(MAX_CONTEXT_MESSAGES).optional(),
    budget_tokens: z.number().int().min(MIN_CONTEXT_BUDGET).max(MAX_CONTEXT_BUDGET),
    include: z.array(z.enum(CONTEXT_SECTIONS)).min(1),
    ...LocalePreferenceShape,
  })
  .strict();
export type ContextQuery = z.infer<typeof ContextQuerySchema>;

const ContextMemorySchema = z.object({
  node_id: z.number().int(),
  content: z.string(),
  speaker: z.string().nullable(),
  /** ● above 0.7, ○ above 0.3, ◌ 0.3 or below, of min(importance, 1). */
  energy: z.enum(["●", "○", "◌"]),
  importance: z.number(),
  entities: z.array(z.string()),
  conflicts_with: z.array(z.number().int()),
  source_message_ids: z.array(z.string()),
  message_time: z.number().int().nullable(),
});

const ContextEpisodeSchema = z.object({
  node_id: z.number().int(),
  summary: z.string(),
  participants: z.array(z.string()),
  /** The span of its messages' times (ms), null when they carried none. */
  from: z.number().int().nullable(),
  to: z.number().int().nullable(),
  /** When the submission was remembered (ms). */
  remembered_at: z.number().int(),
  source_message_ids: z.array(z.string()),
});

export const ContextResultSchema = z.object({
  /** The query the block answers (given, or built from the latest messages). */
  query: z.string(),
  budget_tokens: z.number().int(),
  /** The block's estimated tokens (never above the budget). */
  used_tokens: z.number().int(),
  /** The block to put in front of the model. */
  text: z.string(),
  memories: z.array(ContextMemorySchema),
  episodes: z.array(ContextEpisodeSchema),
  profile: ProfileSchema.nullable(),
  traces: z.array(z.object({ phrase: z.string() })),
});
export type ContextResult = z.infer<typeof ContextResultSchema>;
