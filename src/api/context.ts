/** HTTP schemas of the context reads (docs/design.md, "Context for prompts"): the profile, the context block, episode rebuilds. */
import { z } from "@hono/zod-openapi";
import {
  CONTEXT_SECTIONS,
  ContextResultSchema,
  DEFAULT_CONTEXT_BUDGET,
  MAX_CONTEXT_BUDGET,
  MAX_CONTEXT_MESSAGES,
  MIN_CONTEXT_BUDGET,
  ProfileResultSchema,
} from "../operations/views/get-context-schemas";
import { MAX_MESSAGE_CODE_POINTS } from "../config/limits";
import { LOCALES } from "../vocabulary/locales";
import { MESSAGE_ROLES } from "../vocabulary/roles";
import { TextSchema } from "./common";

export const ProfileUrlQuerySchema = z
  .object({
    locale: z.enum(LOCALES).optional().openapi({
      description: "Language of the profile's labels; default: Accept-Language, else the language of the agent's memories, else English.",
    }),
  })
  .strict();

export const ProfileResponseSchema = ProfileResultSchema.openapi("Profile");

export const ContextRequestSchema = z
  .object({
    query: TextSchema.trim().min(1).max(2000).optional().openapi({ description: "What the block is for; or give `messages`." }),
    messages: z
      .array(
        z
          .object({
            role: z.enum(MESSAGE_ROLES),
            content: TextSchema.min(1).max(MAX_MESSAGE_CODE_POINTS),
            name: TextSchema.trim().min(1).max(128).optional(),
          })
          .strict(),
      )
      .min(1)
      .max(MAX_CONTEXT_MESSAGES)
      .optional()
      .openapi({ description: "The conversation so far: the query is built from its latest turns." }),
    budget_tokens: z.number().int().min(MIN_CONTEXT_BUDGET).max(MAX_CONTEXT_BUDGET).default(DEFAULT_CONTEXT_BUDGET).openapi({
      description:
        "The block never exceeds this many tokens (an upper-bound estimate: 1.5 per CJK character, 0.34 per ASCII character, 1 per other).",
    }),
    include: z
      .array(z.enum(CONTEXT_SECTIONS))
      .min(1)
      .default(["memories", "episodes", "traces"])
      .openapi({ description: "Sections: memories, episodes (when the query asks about an earlier conversation), profile, traces." }),
    locale: z.enum(LOCALES).optional().openapi({
      description: "Language of the block's labels; default: Accept-Language, else the language of the agent's memories, else English.",
    }),
    format: z.enum(["text", "json"]).default("text"),
  })
  .strict()
  .refine((r) => r.query === undefined || r.messages === undefined, {
    message: "give either query or messages, not both",
    path: ["messages"],
  })
  .openapi("ContextRequest");

export const ContextResponseSchema = ContextResultSchema.openapi("Context");

export const RebuildEpisodesAcceptedSchema = z
  .object({ task_id: z.string(), status: z.enum(["queued", "running", "done"]), episodes_created: z.number().int().nullable() })
  .openapi("EpisodesRebuild");
