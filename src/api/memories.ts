/**
 * HTTP schemas of the memory operations (docs/design.md, "Memory operations"): explicit memories, reads, updates,
 * deletes, links, feedback, entity merges, export and import. Requests are strict (unknown fields
 * refused) and text is well-formed Unicode (TextSchema); results are the agent's own schemas under
 * OpenAPI names.
 */
import { z } from "@hono/zod-openapi";
import { decodeIdCursor, encodeIdCursor } from "../operations/views/cursor";
import {
  DEFAULT_HISTORY_PAGE,
  HistoryEntrySchema,
  MAX_HISTORY_PAGE,
  MemoryListResultSchema,
  MemoryViewSchema,
} from "../operations/views/memory-views";
import { ForgetResultSchema } from "../operations/delete-memory";
import { MemorizeResultSchema } from "../operations/create-memory";
import { MergeResultSchema } from "../operations/merge-entities";
import { ReportFeedbackResultSchema } from "../operations/report-feedback";
import { MAX_MESSAGE_CODE_POINTS } from "../config/limits";
import { TOO_LARGE } from "../http/errors";
import { codePointLength } from "../text/code-points";
import { MEMORY_KINDS } from "../vocabulary/node-kinds";
import { EXPLICIT_LINK_RELATIONS, resolveRelation } from "../vocabulary/relations";
import { AgentIdSchema, NodeIdSchema, TextSchema } from "./common";
import { pageSizeQuery } from "./views";
import { TimestampSchema } from "./messages";

/** How long an operation whose result the caller needs waits for its task before answering 202. */
export const OPERATION_WAIT_MS = 25_000;

/** A memory's text: non-blank, at most as long as one message. */
const ContentSchema = TextSchema.superRefine((s, ctx) => {
  if (s.trim().length === 0) ctx.addIssue({ code: "custom", message: "content must not be empty" });
  if (codePointLength(s) > MAX_MESSAGE_CODE_POINTS)
    ctx.addIssue({ code: "custom", message: `content exceeds ${MAX_MESSAGE_CODE_POINTS} characters`, params: { [TOO_LARGE]: true } });
});

const Short = (max: number) => TextSchema.trim().min(1).max(max);

export const MEMORY_TYPE_NAMES = ["event", "fact", "relation", "opinion", "事件", "事实", "关系", "观点"] as const;

export const MemoryRequestSchema = z
  .object({
    content: ContentSchema.optional().openapi({
      description: "The memory as text (or give the structured form instead).",
      example: "I had ramen with Bob yesterday.",
    }),
    subject: Short(200).optional().openapi({ description: "Structured form: who the memory is about.", example: "小明" }),
    memory_type: z.enum(MEMORY_TYPE_NAMES).optional().openapi({
      description:
        "event (事件: an action at a time), fact (事实: a stable state), relation (关系: between people), opinion (观点: a view).",
    }),
    topic: Short(500).optional().openapi({ description: "What it is about: the action or state.", example: "喜好" }),
    object: Short(500).optional().openapi({ description: "What the action or state concerns.", example: "打篮球" }),
    attributes: z
      .record(Short(100), Short(500))
      .refine((a) => Object.keys(a).length <= 20, "at most 20 attributes")
      .optional()
      .openapi({
        description:
          "More facts: time (时间, relative times such as 昨天 or 'last Friday' are resolved), place (地点), reason (原因), manner (方式), or any other.",
        example: { 时间: "昨天", 地点: "体育馆" },
      }),
    importance: z.number().min(0).max(1).optional().openapi({
      description: "Strength of the links to its subject and object entities (default 0.5): 0.3 daily trivia, 0.8 important, 1 key.",
    }),
    timestamp: TimestampSchema.optional().openapi({
      description: "When it was said (default: now): relative times are resolved against it.",
    }),
  })
  .strict()
  .superRefine((r, ctx) => {
    const structured = r.subject !== undefined || r.memory_type !== undefined || r.topic !== undefined;
    if (r.content !== undefined && (structured || r.object !== undefined || r.attributes !== undefined)) {
      ctx.addIssue({ code: "custom", message: "give either content or the structured form (subject, memory_type, topic), not both" });
    } else if (r.content === undefined) {
      for (const key of ["subject", "memory_type", "topic"] as const)
        if (r[key] === undefined) ctx.addIssue({ code: "custom", path: [key], message: `${key} is required without content` });
    }
  })
  .openapi("MemoryRequest");

export const MemoryCreatedSchema = MemorizeResultSchema.extend({ task_id: z.string(), status: z.literal("done") }).openapi("MemoryCreated");

export const PendingSchema = z
  .object({ task_id: z.string(), status: z.enum(["queued", "running"]) })
  .openapi("Pending", { description: "Queued behind earlier writes and not applied yet: follow the task." });

export const MemoryPathSchema = z.object({ agentId: AgentIdSchema, nodeId: NodeIdSchema });

export const MemorySchema = MemoryViewSchema.openapi("Memory");

export const HistorySchema = z
  .object({
    node_id: z.number().int(),
    history: z.array(HistoryEntrySchema),
    /** Versions in all. */
    total: z.number().int(),
    next_cursor: z.string().nullable(),
  })
  .openapi("MemoryHistory");

export { DEFAULT_HISTORY_PAGE };

/** The `cursor` of the listing and of a history: a `next_cursor` this API gave (src/operations/views/cursor.ts). */
const PageCursorQuery = z
  .string()
  .refine((c) => decodeIdCursor(c) !== undefined, "not a cursor returned by this endpoint")
  .optional()
  .openapi({ description: "`next_cursor` of the previous page; omit for the first page." });

export const HistoryQuerySchema = z
  .object({
    cursor: PageCursorQuery,
    limit: pageSizeQuery("limit", MAX_HISTORY_PAGE, DEFAULT_HISTORY_PAGE),
  })
  .strict();

/** The listing cursor is opaque to clients (src/operations/views/cursor.ts): the last id of the previous page. */
export const encodeMemoryCursor = encodeIdCursor;
export const decodeMemoryCursor = decodeIdCursor;

export const DEFAULT_MEMORY_PAGE = 50;
export const MAX_MEMORY_PAGE = 200;

export const MemoryListQuerySchema = z
  .object({
    kind: z
      .string()
      .regex(/^(segment|memory|episode)(,(segment|memory|episode))*$/, "kind: segment, memory or episode, comma-separated")
      .optional()
      .openapi({ description: "Kinds to list, comma-separated (default: all three; entities are never listed).", example: "memory" }),
    cursor: PageCursorQuery,
    limit: z
      .string()
      .regex(/^[1-9][0-9]{0,2}$/, `limit: memories per page, 1–${MAX_MEMORY_PAGE}`)
      .transform(Number)
      .refine((n) => n <= MAX_MEMORY_PAGE, `limit: at most ${MAX_MEMORY_PAGE}`)
      .optional()
      .openapi({ description: `Memories per page (1–${MAX_MEMORY_PAGE}, default ${DEFAULT_MEMORY_PAGE}).`, type: "string" }),
    include_superseded: z
      .enum(["true", "false"])
      .optional()
      .openapi({ description: "Also list versions that a newer one corrected (default false)." }),
  })
  .strict();

export function kindsOf(kind: string | undefined): (typeof MEMORY_KINDS)[number][] {
  if (kind === undefined) return [...MEMORY_KINDS];
  return [...new Set(kind.split(","))].filter((k): k is (typeof MEMORY_KINDS)[number] => (MEMORY_KINDS as readonly string[]).includes(k));
}

export const MemoryListSchema = MemoryListResultSchema.omit({ next_before: true })
  .extend({ next_cursor: z.string().nullable() })
  .openapi("MemoryList");

export const UpdateRequestSchema = z.object({ content: ContentSchema }).strict().openapi("MemoryUpdate");

export const UpdatedSchema = z
  .object({ node_id: z.number().int(), supersedes: z.number().int(), links_moved: z.number().int() })
  .openapi("MemoryUpdated", { description: "The new version's id; the old one is history now." });

export const DeleteQuerySchema = z
  .object({
    purge: z
      .enum(["true", "false"])
      .optional()
      .openapi({ description: "Also remove every trace: dangling links, earlier versions, message ids (default false)." }),
  })
  .strict();

const ForgottenResult = ForgetResultSchema.options[0];
export const ForgottenSchema = ForgottenResult.omit({ outcome: true })
  .extend({ deleted: z.literal(true) })
  .openapi("MemoryDeleted");

/** A relation of the explicit vocabulary, in Chinese or by its English name. */
const RelationSchema = TextSchema.trim()
  .refine((r) => (EXPLICIT_LINK_RELATIONS as readonly string[]).includes(resolveRelation(r)), {
    message: `relation: one of ${EXPLICIT_LINK_RELATIONS.join(", ")} or because, therefore, causes, cites, based_on, related`,
  })
  .transform(resolveRelation)
  .openapi({ example: "causes" });

const MemoryRefSchema = z
  .union([
    z
      .number()
      .int()
      .min(1)
      .max(2 ** 30),
    TextSchema.trim().min(1).max(2000),
  ])
  .openapi({ description: "A node id, or a description of the memory (resolved by the agent's own search)." });

export const LinkRequestSchema = z
  .object({
    source: MemoryRefSchema,
    target: MemoryRefSchema,
    relation: RelationSchema,
    strength: z.number().gt(0).max(1).optional().openapi({ description: "Default 0.6; the link decays like any other." }),
  })
  .strict()
  .openapi("LinkRequest");

export const LinkSchema = z
  .object({ source: z.number().int(), target: z.number().int(), relation: z.string(), strength: z.number() })
  .openapi("Link");

export const UnlinkQuerySchema = z
  .object({
    source: NodeIdSchema.openapi({ param: { name: "source", in: "query" } }),
    target: NodeIdSchema.openapi({ param: { name: "target", in: "query" } }),
    relation: RelationNameQuery(),
  })
  .strict();

/** Any relation name of a link (stored name or English alias), for deleting one. */
function RelationNameQuery() {
  return TextSchema.trim()
    .min(1)
    .max(50)
    .transform(resolveRelation)
    .openapi({ param: { name: "relation", in: "query" }, example: "causes" });
}

export const FeedbackRequestSchema = z
  .object({
    node_ids: z
      .array(
        z
          .number()
          .int()
          .min(1)
          .max(2 ** 30),
      )
      .min(1)
      .max(100),
    used: z.boolean().openapi({ description: "Whether the caller really used these memories (only used ones are reinforced)." }),
  })
  .strict()
  .openapi("FeedbackRequest");

export const FeedbackSchema = ReportFeedbackResultSchema.openapi("Feedback");

export const MergeRequestSchema = z
  .object({
    into: z
      .number()
      .int()
      .min(1)
      .max(2 ** 30)
      .openapi({ description: "The entity that survives." }),
  })
  .strict()
  .openapi("MergeRequest");

const Merged = MergeResultSchema.options[0];
export const MergedSchema = Merged.omit({ outcome: true }).openapi("EntityMerged");

export const ImportedSchema = z
  .object({ nodes: z.number().int(), links: z.number().int(), aliases: z.number().int(), messages: z.number().int() })
  .openapi("Imported");
