import { sql } from "drizzle-orm";
import { index, integer, primaryKey, real, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { AUDIT_ACTIONS } from "../vocabulary/audit-actions";
import { JURISDICTIONS } from "../vocabulary/jurisdictions";
import { REGIONS } from "../vocabulary/regions";
import { NODE_KINDS } from "../vocabulary/node-kinds";
import { SCOPES } from "../vocabulary/scopes";

/**
 * D1 schema. Every memory row carries `agent`, the integer id of its agent in `agents`, and every
 * query on `nodes`/`link_blocks` filters on it first (all indexes lead with it). Generated into
 * migrations/ by `npm run db:generate`; never edit the generated SQL by hand, but for a custom
 * migration (`drizzle-kit generate --custom`: 0012 moves the links into blocks).
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
    /**
     * The D1 database (its binding name) that holds the agent's memory rows, chosen when the agent
     * registers (src/storage/agent-registry.ts). Agents registered before sharding live in the
     * primary database, `DB`.
     */
    d1Shard: text("d1_shard").notNull().default("DB"),
    /**
     * The agent's key in its shard: the `agent` column of its rows and its full-text rowid range.
     * Handed out per shard and never reused; null for agents registered before sharding, whose key
     * is their registry id.
     */
    d1Key: integer("d1_key"),
    /**
     * The Vectorize index (its binding name) that holds the agent's vectors; null with the local
     * vector index, and for agents registered before sharding (the binding VECTORIZE).
     */
    vectorIndex: text("vector_index"),
    /**
     * The jurisdiction the agent was created in (src/vocabulary/jurisdictions.ts): its object is
     * addressed in that jurisdiction's namespace and its shard and index are configured for it;
     * null: none. Set at registration, never changed.
     */
    jurisdiction: text("jurisdiction", { enum: JURISDICTIONS }),
    /** The region its shard was chosen in (src/vocabulary/regions.ts), its object created near; null: none. */
    region: text("region", { enum: REGIONS }),
    /**
     * What the agent held when it last reported its usage (src/agent/tenant-terms.ts): nodes and
     * vectors. The cron adds them up per tenant each day (usage, docs/deploy.md "Usage").
     */
    nodesHeld: integer("nodes_held").notNull().default(0),
    vectorsHeld: integer("vectors_held").notNull().default(0),
  },
  (t) => [
    uniqueIndex("agents_tenant_agent").on(t.tenantId, t.agentId),
    index("agents_due").on(t.dueAt),
    uniqueIndex("agents_d1_key").on(t.d1Shard, t.d1Key),
  ],
);

/**
 * The storage agents are spread over (docs/deploy.md, "Limits"): one row per D1 shard and per
 * Vectorize index, created the first time an agent is assigned to it. Assignment reads these rows;
 * the cron's measurements and a full index's own report close one to new agents.
 */
export const storageShards = sqliteTable(
  "storage_shards",
  {
    kind: text("kind", { enum: ["d1", "vectorize"] }).notNull(),
    /** The binding name in the Worker's configuration. */
    binding: text("binding").notNull(),
    /** D1: the next agent key this shard hands out (keys are never reused). */
    nextKey: integer("next_key").notNull().default(1),
    /** Agents assigned to it so far (deleted agents included: a load measure, not a live count). */
    agents: integer("agents").notNull().default(0),
    /** When it stopped taking new agents (null: it takes them), and why. */
    fullAt: integer("full_at"),
    fullReason: text("full_reason"),
    /** The last measurement: bytes of a D1 database, vectors of an index; and when it was taken. */
    used: integer("used"),
    checkedAt: integer("checked_at"),
  },
  (t) => [primaryKey({ columns: [t.kind, t.binding] })],
);

/**
 * API keys (docs/design.md, "Tenants and keys"), stored as SHA-256 hashes; each key is bound to one
 * tenant. A key is valid while it is neither revoked nor past its expiry.
 */
export const apiKeys = sqliteTable(
  "api_keys",
  {
    keyHash: text("key_hash").primaryKey(),
    tenantId: text("tenant_id").notNull(),
    label: text("label"),
    createdAt: integer("created_at").notNull(),
    revokedAt: integer("revoked_at"),
    /**
     * The key's first characters (`amk_` and 8 more): public, it names the key in lists, logs and
     * the audit log. Null for a key created before prefixes until its next use records it.
     */
    prefix: text("prefix"),
    /** read, write or admin; keys created before scopes could do everything. */
    scope: text("scope", { enum: SCOPES }).notNull().default("admin"),
    /** The key reaches only agents whose id starts with this; null: every agent of its tenant. */
    agentPrefix: text("agent_prefix"),
    /** When it stops working (ms since epoch); null: never. Rotation sets it to the end of the grace period. */
    expiresAt: integer("expires_at"),
    /** Its latest use, to the hour (src/http/principal.ts): no request writes it more often. */
    lastUsedAt: integer("last_used_at"),
    /** The prefix of the key that replaced it by rotation. */
    replacedBy: text("replaced_by"),
  },
  (t) => [uniqueIndex("api_keys_prefix").on(t.prefix), index("api_keys_tenant").on(t.tenantId)],
);

/**
 * A tenant's quota overrides and its model weight (docs/deploy.md, "Quotas"), set by the operator;
 * a null column keeps the deployment's default (the QUOTA_* vars). No row: every default.
 */
export const tenants = sqliteTable("tenants", {
  tenantId: text("tenant_id").primaryKey(),
  maxAgents: integer("max_agents"),
  maxNodesPerAgent: integer("max_nodes_per_agent"),
  messagesPerDay: integer("messages_per_day"),
  requestsPerMinute: integer("requests_per_minute"),
  /** Its share of the account's model budget against other tenants with work waiting (default 1). */
  modelWeight: integer("model_weight"),
  /**
   * Where the tenant's agents are created (src/vocabulary/jurisdictions.ts); null: no jurisdiction.
   * Set by the operator only while the tenant has no agent (src/service/tenant-placement.ts).
   */
  jurisdiction: text("jurisdiction", { enum: JURISDICTIONS }),
  /** Where the tenant's new agents are placed (src/vocabulary/regions.ts): their shard and object; null: anywhere. */
  region: text("region", { enum: REGIONS }),
  updatedAt: integer("updated_at").notNull(),
});

/**
 * The audit log (docs/design.md, "Tenants and keys"): key and quota changes, agent deletions,
 * purges and imports, kept AUDIT_RETENTION_DAYS. Names and numbers only, never memory content.
 */
export const auditLog = sqliteTable(
  "audit_log",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    tenantId: text("tenant_id").notNull(),
    at: integer("at").notNull(),
    action: text("action", { enum: AUDIT_ACTIONS }).notNull(),
    /** Who acted: the public prefix of the key, "operator" (the admin API or the CLI), "binding" (Workers RPC). */
    actor: text("actor").notNull(),
    requestId: text("request_id"),
    agentId: text("agent_id"),
    /** What it acted on besides the agent: a key's prefix, a node id, a session. */
    subject: text("subject"),
    /** A JSON object of names and numbers (a grace period, counts, limits). */
    details: text("details"),
  },
  (t) => [index("audit_log_tenant").on(t.tenantId, t.id), index("audit_log_at").on(t.at)],
);

/**
 * A tenant's counters per UTC day that the edge counts where it decides (messages remembered: the
 * daily quota's own count, src/storage/tenant-usage.ts) and the cron's daily measurements of what
 * its agents hold.
 */
export const tenantUsage = sqliteTable(
  "tenant_usage",
  {
    tenantId: text("tenant_id").notNull(),
    /** UTC day, YYYY-MM-DD. */
    day: text("day").notNull(),
    metric: text("metric").notNull(),
    value: integer("value").notNull(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.day, t.metric] })],
);

/**
 * What each agent counted per UTC day (requests by kind, model calls, D1 rows, what it holds), as
 * its object last reported it: absolute counts, so a report sent twice changes nothing.
 */
export const agentUsage = sqliteTable(
  "agent_usage",
  {
    tenantId: text("tenant_id").notNull(),
    agentId: text("agent_id").notNull(),
    day: text("day").notNull(),
    metric: text("metric").notNull(),
    value: integer("value").notNull(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.day, t.metric, t.agentId] })],
);

/** Memory nodes (docs/design.md, "The model"): segments of conversation and the entities they are about. */
export const nodes = sqliteTable(
  "nodes",
  {
    /** The agent's registry id (agents.id). */
    agentUid: integer("agent").notNull(),
    /** Allocated by the agent's Durable Object, so a re-run task writes the same ids (idempotent). */
    id: integer("id").notNull(),
    kind: text("kind", { enum: NODE_KINDS }).notNull(),
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
    /**
     * When the node last left the focus: the decay clock then and the epoch (task sequence) of the
     * remember that moved it. Its links restart from strength 1 at that clock (src/memory/strength.ts).
     */
    releasedClock: real("released_clock"),
    releasedEpoch: integer("released_epoch"),
    /**
     * Tokens of the node's full-text document: with the row count, the agent's own BM25 length
     * statistics (the full-text index's statistics are shared by every agent of the database).
     */
    ftsTokens: integer("fts_tokens").notNull().default(0),
    /**
     * The memory that corrected this one (docs/design.md, "Memory operations"): a superseded memory is history,
     * never an answer, until forgetting takes it.
     */
    supersededBy: integer("superseded_by"),
    /** Kind-specific facts as a JSON object (an explicit memory's structure, an episode's span). */
    meta: text("meta"),
    /** A standing instruction, outside forgetting (docs/design.md, "Pins"). */
    pinned: integer("pinned", { mode: "boolean" }).notNull().default(false),
    /** Scoping (docs/design.md, "Scoping: sessions, speakers, tags and expiry"): the memory's session, its tags (JSON object), its expiry (ms). */
    sessionId: text("session_id"),
    metadata: text("metadata"),
    expiresAt: integer("expires_at"),
  },
  // Partial: a segment has no name and is not superseded, so it writes no entry in either (D1
  // counts an index entry as a row written); every query that uses them names a value
  // (test/unit/storage/schema.test.ts).
  (t) => [
    primaryKey({ columns: [t.agentUid, t.id] }),
    uniqueIndex("nodes_entity_name")
      .on(t.agentUid, t.name)
      .where(sql`${t.name} IS NOT NULL`),
    index("nodes_superseded")
      .on(t.agentUid, t.supersededBy)
      .where(sql`${t.supersededBy} IS NOT NULL`),
    // The few pinned memories of an agent, without a pass over its nodes (compression and the context
    // block read them). Partial: an unpinned memory, nearly every one, writes no entry.
    index("nodes_pinned")
      .on(t.agentUid, t.id)
      .where(sql`${t.pinned} = 1`),
    // A session's memories in id order: its deletion, its count, listings filtered by it. Partial like
    // the others: a memory outside any session writes no entry.
    index("nodes_session")
      .on(t.agentUid, t.sessionId, t.id)
      .where(sql`${t.sessionId} IS NOT NULL`),
  ],
);

/**
 * Directed, named links, owned by their source, stored by block (src/storage/link-blocks.ts): the
 * links from the sources of one page of 256 ids to the targets of another, as one JSON body. A
 * remember rewrites a few blocks instead of writing a row and three index entries per link
 * (docs/design.md, "Decision 2"). Strength is stored as a log-level against the agent's decay clock:
 * strength = min(1, exp(level - clock)); the focus pins links without rewriting them
 * (src/memory/strength.ts). Migration 0012 also defines a view `links` of one row per link, for
 * reading by hand. The table is WITHOUT ROWID (written in the migration): its key is its only index
 * but the target pages' one.
 */
export const linkBlocks = sqliteTable(
  "link_blocks",
  {
    /** The agent's registry id (agents.id). */
    agentUid: integer("agent").notNull(),
    spage: integer("spage").notNull(),
    tpage: integer("tpage").notNull(),
    body: text("body").notNull(),
  },
  (t) => [primaryKey({ columns: [t.agentUid, t.spage, t.tpage] }), index("link_blocks_target").on(t.agentUid, t.tpage, t.spage)],
);

/**
 * Other names of an entity (docs/design.md, "Memory operations", entity resolution): an alias key leads to the
 * entity that absorbed it, so a later mention of the alias meets the same node.
 */
export const entityAliases = sqliteTable(
  "entity_aliases",
  {
    agentUid: integer("agent").notNull(),
    /** The alias's normalised key (src/language/entities/entity-key.ts). */
    key: text("key").notNull(),
    /** The alias as written. */
    name: text("name").notNull(),
    nodeId: integer("node_id").notNull(),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.agentUid, t.key] }), index("entity_aliases_node").on(t.agentUid, t.nodeId)],
);

export type NodeRow = typeof nodes.$inferSelect;
