/**
 * Platform and product limits as named constants. Request limits are enforced by the HTTP schemas
 * and answered with a clear error; storage limits shape how statements are built.
 */

/**
 * Rows per bulk statement when rows travel as one JSON parameter (D1 binds at most 100 parameters
 * to a statement; this keeps each statement well under its 100 KB/2 MB limits).
 */
export const ROWS_PER_JSON_STATEMENT = 400;

/** Request body size; larger bodies are refused with 413 before parsing. */
export const MAX_BODY_BYTES = 1024 * 1024;

/**
 * An import's body (POST /v1/agents/:id/import, docs/design.md, "Memory operations"): streamed and validated line
 * by line, never held whole. Below the 100 MB request body limit of Cloudflare's Free and Pro plans.
 */
export const MAX_IMPORT_BYTES = 95 * 1024 * 1024;

/**
 * One line of an import (UTF-8 bytes, as read and as staged): far above any line export writes (a
 * node of 32,000 code points, 250 message ids), and far below the 2 MB an object's SQLite value or
 * a D1 statement's parameter may hold. A longer line is refused with 413, naming it, as soon as
 * it is seen (docs/design.md, "Memory operations").
 */
export const MAX_IMPORT_LINE_BYTES = 512 * 1024;

/** Messages per remember call. */
export const MAX_MESSAGES_PER_REMEMBER = 500;

/** Code points per message, and per remember call in total (the task is stored in one SQLite row). */
export const MAX_MESSAGE_CODE_POINTS = 32_000;
export const MAX_REMEMBER_CODE_POINTS = 200_000;

/** Recall bounds. */
export const MAX_RECALL_DEPTH = 6;
export const MAX_RECALL_KEYWORDS = 32;
export const MAX_RECALL_RELATIONS = 16;
export const MAX_RECALL_LIMIT = 100;
export const DEFAULT_RECALL_LIMIT = 10;
/** Forgotten-memory traces shown per recall ("at most a few"). */
export const MAX_RECALL_TRACES = 3;

/** Tasks waiting in one agent's queue before new writes are refused with 429. */
export const MAX_QUEUED_TASKS = 2_000;

/** Attempts of one task before it is marked failed and the queue moves on. */
export const MAX_TASK_ATTEMPTS = 3;

/** Finished tasks kept for status lookups (the oldest are pruned beyond this). */
export const FINISHED_TASKS_KEPT = 5_000;

/** Agent and tenant ids: what may appear in a path and in a Durable Object name. */
export const AGENT_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;

/**
 * Message times are kept as milliseconds since the epoch within the years 0001–9999 (what an ISO
 * 8601 date-time can name); anything outside is refused rather than stored as a nonsense date.
 */
export const MIN_TIMESTAMP_MS = -62_135_596_800_000; // 0001-01-01T00:00:00Z
export const MAX_TIMESTAMP_MS = 253_402_300_799_999; // 9999-12-31T23:59:59.999Z

/**
 * Agent registry ids per D1 database: a full-text rowid is agent · 2^30 + node id and must stay an
 * exact integer (below 2^53), so a database addresses at most 2^23 agents. Enforced when an agent
 * registers (a database at the limit answers 503 until new agents go to another one).
 */
export const MAX_AGENT_UID = 2 ** 23 - 1;

/**
 * Node ids per agent: 1 to 2^30 − 1, never reused. The agent's full-text rows are agent · 2^30 +
 * node id, so an id of 2^30 would be the next agent's node 0 (docs/design.md, "Node ids"). The
 * storage layer refuses any id outside the range; an agent whose ids could run past it refuses new
 * writes that allocate nodes (409 naming the limit).
 */
export const MAX_NODE_ID = 2 ** 30 - 1;

/**
 * A bound on the node ids one write allocates: a remember of MAX_REMEMBER_CODE_POINTS makes at
 * most that many segments and that many new entities, plus its episode; an episode rebuild at most
 * 100,000 episodes. A write is accepted only while every write queued, and it, could take this many.
 */
export const NODE_IDS_PER_WRITE = 2 ** 19;

/**
 * Work one Durable Object invocation does before it hands the rest of its queue to a fresh alarm
 * invocation (src/engine/queue-runner.ts): at most this many durable tasks, and no task starts
 * once this much wall time has passed since the drain began. CPU time is never more than wall
 * time, so a drain stays far below the CPU limit per invocation (wrangler.toml `[limits] cpu_ms`)
 * and the alarm's 15 minutes of wall time; the task running when the budget runs out finishes
 * first (docs/deploy.md, "Limits").
 */
export const DRAIN_MAX_TASKS = 25;
export const DRAIN_BUDGET_MS = 15_000;

/**
 * Agent deletion in chunks (src/operations/delete-agent/task.ts): each chunk is one commit of at most
 * this many links, or this many nodes with their full-text rows and vectors (their links are gone
 * by then). A link is one row and three index entries, a node one row, two index entries and a
 * full-text row: a chunk writes a few thousand rows, well under a second of D1 time against its
 * 30-second limit, so other agents of the database get in between chunks. A slice of chunks
 * ends the invocation's share; the alarm continues.
 */
export const DELETE_LINKS_PER_CHUNK = 1_000;
export const DELETE_NODES_PER_CHUNK = 500;
export const DELETE_CHUNKS_PER_SLICE = 25;

/** D1's largest database (Workers Paid), in bytes. */
export const D1_MAX_DATABASE_BYTES = 10_000_000_000;

/** Vectorize: namespaces per index (one per agent), and the vectors an index holds by default (VECTORIZE_INDEX_CAPACITY). */
export const VECTORIZE_MAX_NAMESPACES_PER_INDEX = 50_000;
export const VECTORIZE_DEFAULT_INDEX_CAPACITY = 5_000_000;

/**
 * A D1 shard or a Vectorize index stops taking new agents once it holds this share of its
 * capacity: the agents already on it keep room to grow (docs/deploy.md, "Limits").
 */
export const STORAGE_FILL_RATIO = 0.8;
