/**
 * listSessions (docs/design.md, "Sessions as a resource"): a page of the agent's sessions in id
 * order, each with the times of its first and last message, the messages remembered into it (the
 * object's record) and the memories it holds now (counted for the page). A read-lane task, so it
 * sees every write accepted before it.
 */
import { z } from "zod";
import { defineTask } from "../../engine/define-task";
import type { AgentNetwork, AgentStores } from "../../engine/runtime";
import { SessionIdSchema } from "../../vocabulary/memory-filter";

export const MAX_SESSION_PAGE = 200;

export const ListSessionsPayloadSchema = z
  .object({
    /** Sessions after this id (the previous page's last). */
    after: SessionIdSchema.optional(),
    limit: z.number().int().min(1).max(MAX_SESSION_PAGE),
  })
  .strict();

export const SessionViewSchema = z.object({
  session_id: z.string(),
  /** The earliest and latest time of what was remembered into it (messages' time, else when written), ms. */
  first_time: z.number().int(),
  last_time: z.number().int(),
  /** Messages remembered into it. */
  messages: z.number().int(),
  /** Memories it holds now (current versions, not expired): forgetting lowers it. */
  memories: z.number().int(),
});

export const ListSessionsResultSchema = z.object({
  sessions: z.array(SessionViewSchema),
  /** Pass as `after` for the next page; null on the last page. */
  next_after: z.string().nullable(),
});

export const listSessionsTask = defineTask({
  lane: "read",
  payload: ListSessionsPayloadSchema,
  result: ListSessionsResultSchema,
  async run(rt: AgentStores & AgentNetwork, task) {
    const { after, limit } = task.payload;
    const rows = rt.sessions.page(after, limit + 1);
    const shown = rows.slice(0, limit);
    const repos = rt.existingRepos();
    const held = repos
      ? await repos.nodes.sessionCounts(
          shown.map((s) => s.id),
          rt.now(),
        )
      : new Map<string, number>();
    const last = shown.at(-1);
    return {
      status: "done",
      result: {
        sessions: shown.map((s) => ({
          session_id: s.id,
          first_time: s.firstTime,
          last_time: s.lastTime,
          messages: s.messages,
          memories: held.get(s.id) ?? 0,
        })),
        next_after: rows.length > limit && last ? last.id : null,
      },
    };
  },
});
