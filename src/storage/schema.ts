import { index, integer, primaryKey, real, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";

/**
 * D1 schema. Every memory row carries `agent`, the integer id of its agent in `agents`, and every
 * query on `nodes`/`links` filters on it first (all indexes lead with it). Generated into
 * migrations/ by `npm run db:generate`; never edit the generated SQL by hand.
 */

/** The agent registry: one row per (tenant, agent id), created on an agent's first write. */
export const agents = sqliteTable(
  "agents",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    tenantId: text("tenant_id").notNull(),
    agentId: text("agent_id").notNull(),
    createdAt: integer("created_at").notNull(),
    lastActiveAt: integer("last_active_at").notNull(),
    /** Earliest moment the agent has work due (queued tasks, an unfinished scan); null when idle. */
    dueAt: integer("due_at"),
  },
  (t) => [uniqueIndex("agents_tenant_agent").on(t.tenantId, t.agentId), index("agents_due").on(t.dueAt)],
);

/** API keys, stored as SHA-256 hashes; each key is bound to one tenant. */
export const apiKeys = sqliteTable("api_keys", {
  keyHash: text("key_hash").primaryKey(),
  tenantId: text("tenant_id").notNull(),
  label: text("label"),
  createdAt: integer("created_at").notNull(),
  revokedAt: integer("revoked_at"),
});

/** Memory nodes (DESIGN §3): segments of conversation and the entities they are about. */
export const nodes = sqliteTable(
  "nodes",
  {
    agent: integer("agent").notNull(),
    /** Allocated by the agent's Durable Object, so a re-run task writes the same ids (idempotent). */
    id: integer("id").notNull(),
    kind: text("kind", { enum: ["segment", "entity"] }).notNull(),
    /** Normalised entity name, unique per agent; null for segments. */
    name: text("name"),
    content: text("content").notNull(),
    /** Code points of the content when the node was created; compression targets are relative to it. */
    originalLength: integer("original_length").notNull(),
    phrase: text("phrase").notNull(),
    /** JSON array of keyword strings. */
    keywords: text("keywords").notNull(),
    role: text("role"),
    speaker: text("speaker"),
    /** JSON array of the client's message ids this node came from (provenance). */
    sourceMessageIds: text("source_message_ids").notNull(),
    sourceTaskId: text("source_task_id"),
    /** The source messages' own timestamp (ms since epoch) when the client gave one. Metadata only. */
    messageTime: integer("message_time"),
    createdAt: integer("created_at").notNull(),
    scanCount: integer("scan_count").notNull().default(0),
    /** The last compression cycle that scanned this node: a cycle never scans a node twice. */
    scannedCycle: integer("scanned_cycle").notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.agent, t.id] }),
    uniqueIndex("nodes_entity_name").on(t.agent, t.name),
    index("nodes_scan").on(t.agent, t.scanCount, t.id),
  ],
);

/**
 * Directed, named links, owned by their source. Strength is stored as a log-level against the
 * agent's decay clock: strength = min(1, exp(level - clock)). Decaying every link is then one
 * clock step, and breaking weak links one indexed DELETE on `level` (see src/memory/strength.ts).
 */
export const links = sqliteTable(
  "links",
  {
    id: integer("id").primaryKey({ autoIncrement: false }),
    agent: integer("agent").notNull(),
    source: integer("source").notNull(),
    target: integer("target").notNull(),
    relation: text("relation").notNull(),
    level: real("level").notNull(),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [
    uniqueIndex("links_source").on(t.agent, t.source, t.target, t.relation),
    index("links_target").on(t.agent, t.target, t.source),
    index("links_level").on(t.agent, t.level),
  ],
);

export type NodeRow = typeof nodes.$inferSelect;
export type LinkRow = typeof links.$inferSelect;
