/**
 * The agent's own types of the context block (docs/design.md, "Context for prompts"), served by its
 * route under OpenAPI names. Kept apart from the task so that reading them pulls in nothing but zod
 * and the vocabulary.
 */
import { z } from "zod";
import { ConversationTurnSchema } from "../../vocabulary/message";
import { LocalePreferenceShape } from "../../vocabulary/locales";
import { ProfileSchema } from "../get-profile/schemas";
import { viewFields } from "../shared/node-fields";

export const CONTEXT_SECTIONS = ["memories", "episodes", "profile", "traces"] as const;
export const DEFAULT_CONTEXT_BUDGET = 1_000;
export const MAX_CONTEXT_BUDGET = 32_000;
/** The smallest budget that can hold a header and one short line. */
export const MIN_CONTEXT_BUDGET = 20;
/** Messages a context request may carry (only the latest turns build the query). */
export const MAX_CONTEXT_MESSAGES = 50;

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
  // pinned: a standing instruction (docs/design.md, "Pins"); pinned memories come first, under their own heading.
  ...viewFields("node_id", "pinned", "content", "speaker"),
  /** ● above 0.7, ○ above 0.3, ◌ 0.3 or below, of min(importance, 1). */
  energy: z.enum(["●", "○", "◌"]),
  ...viewFields("importance"),
  entities: z.array(z.string()),
  ...viewFields("conflicts_with", "source_message_ids", "message_time"),
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
