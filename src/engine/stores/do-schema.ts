/**
 * The agent Durable Object's own SQLite schema: the durable task queue, the focus LRU, a small
 * key-value table, scan bookkeeping, write intents and the message ids held. Versioned: each step
 * runs once, in order, inside the start-up gate. Steps are never edited once released: a change
 * is a new step.
 */
const STEPS: readonly string[] = [
  `CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
   CREATE TABLE tasks (
     seq INTEGER PRIMARY KEY AUTOINCREMENT,
     id TEXT NOT NULL UNIQUE,
     kind TEXT NOT NULL,
     payload TEXT NOT NULL,
     status TEXT NOT NULL,
     background INTEGER NOT NULL DEFAULT 0,
     ephemeral INTEGER NOT NULL DEFAULT 0,
     attempts INTEGER NOT NULL DEFAULT 0,
     not_before INTEGER NOT NULL DEFAULT 0,
     error TEXT,
     result TEXT,
     checkpoint TEXT,
     created_at INTEGER NOT NULL,
     started_at INTEGER,
     finished_at INTEGER
   );
   CREATE INDEX tasks_pending ON tasks (status, background, seq);
   CREATE TABLE focus (position INTEGER PRIMARY KEY, node_id INTEGER NOT NULL, key TEXT NOT NULL, name TEXT NOT NULL);`,
  // The local vector index (VECTOR_PROVIDER=local) and, for Vectorize, the buffer of vectors written
  // recently enough that Vectorize may not serve them yet (its writes are eventually consistent).
  `CREATE TABLE vectors (node_id INTEGER PRIMARY KEY, kind TEXT NOT NULL, vec BLOB NOT NULL);
   CREATE TABLE recent_vectors (node_id INTEGER PRIMARY KEY, kind TEXT NOT NULL, vec BLOB NOT NULL, written_at INTEGER NOT NULL);
   CREATE INDEX recent_vectors_written ON recent_vectors (written_at);`,
  // The task kinds' lanes and the order key (a compression cycle queued by a remember runs
  // right behind it: position = the remember's); scan bookkeeping (scan count = scan cycles − base);
  // stored write intents (src/engine/write-path.ts); message ids held (never stored twice).
  `ALTER TABLE tasks ADD COLUMN lane TEXT NOT NULL DEFAULT 'write';
   ALTER TABLE tasks ADD COLUMN position INTEGER NOT NULL DEFAULT 0;
   UPDATE tasks SET position = seq, lane = CASE WHEN ephemeral = 1 THEN 'read' WHEN kind = 'compress' THEN 'cycle'
                                               WHEN background = 1 THEN 'maintenance' ELSE 'write' END;
   DROP INDEX tasks_pending;
   ALTER TABLE tasks DROP COLUMN background;
   ALTER TABLE tasks DROP COLUMN ephemeral;
   CREATE INDEX tasks_order ON tasks (status, lane, position, seq);
   CREATE TABLE node_scan (node_id INTEGER PRIMARY KEY, base INTEGER NOT NULL);
   CREATE INDEX node_scan_order ON node_scan (base DESC, node_id);
   CREATE TABLE intents (task_id TEXT PRIMARY KEY, intent TEXT NOT NULL);
   CREATE TABLE messages (id TEXT PRIMARY KEY);`,
  // Idempotency keys of writes (src/engine/stores/idempotency.ts).
  `CREATE TABLE idempotency (key TEXT PRIMARY KEY, fingerprint TEXT NOT NULL, task_ids TEXT NOT NULL, created_at INTEGER NOT NULL);
   CREATE INDEX idempotency_created ON idempotency (created_at);`,
  // Parts of a write intent beyond its first (src/engine/stores/intent-store.ts): one SQLite value holds
  // at most 2 MB, and the intent of a maximal remember is larger.
  `CREATE TABLE intent_parts (task_id TEXT NOT NULL, part INTEGER NOT NULL, body TEXT NOT NULL, PRIMARY KEY (task_id, part));`,
  // The Vectorize buffer keeps a vector until the index reports its mutation processed
  // (src/vectors/recent-vectors.ts); vectors buffered before count as accepted when written.
  `ALTER TABLE recent_vectors ADD COLUMN mutation_id TEXT;
   ALTER TABLE recent_vectors ADD COLUMN accepted_at INTEGER;
   ALTER TABLE recent_vectors ADD COLUMN mutation_seq INTEGER;
   UPDATE recent_vectors SET accepted_at = written_at, mutation_seq = 0;
   CREATE INDEX recent_vectors_mutation ON recent_vectors (mutation_id);`,
  // Memory operations (docs/design.md, "Memory operations"): the compression cycle in which each memory was last
  // reinforced (at most once per cycle), and import lines validated and waiting for their task.
  `CREATE TABLE reinforced (node_id INTEGER PRIMARY KEY, cycle INTEGER NOT NULL);
   CREATE TABLE import_staging (import_id TEXT NOT NULL, seq INTEGER NOT NULL, line TEXT NOT NULL, created_at INTEGER NOT NULL,
     PRIMARY KEY (import_id, seq));`,
  // A key whose write was deleted since (an agent deletion, a purge) answers that, never a replay
  // (src/engine/stores/idempotency.ts).
  `ALTER TABLE idempotency ADD COLUMN gone INTEGER NOT NULL DEFAULT 0;`,
  // Memories forgotten without a purge and the task that wrote each (src/engine/stores/forgotten-nodes.ts):
  // a later purge of one retires that task's result and key. Ids, task ids and message ids only.
  `CREATE TABLE forgotten (node_id INTEGER PRIMARY KEY, task_id TEXT, message_ids TEXT NOT NULL);
   CREATE INDEX forgotten_task ON forgotten (task_id);`,
  // The object's own copy of the network (graph-snapshot-store.ts): a snapshot in parts and the
  // journal of the commits since, so a wake reads neither from D1.
  `CREATE TABLE graph_snapshot (part INTEGER PRIMARY KEY, body BLOB NOT NULL);
   CREATE TABLE graph_journal (seq INTEGER NOT NULL, part INTEGER NOT NULL, body BLOB NOT NULL, PRIMARY KEY (seq, part)) WITHOUT ROWID;`,
  // Scoping (docs/design.md, "Scoping: sessions, speakers, tags and expiry"): the sessions remembered
  // into (src/engine/stores/session-store.ts), the memories' expiries (expiry-store.ts: the alarm's
  // schedule of purges), the session of a forgotten memory (a session's purge finds it), and the
  // session and speaker the vector indexes filter on.
  `CREATE TABLE sessions (id TEXT PRIMARY KEY, first_time INTEGER NOT NULL, last_time INTEGER NOT NULL, messages INTEGER NOT NULL);
   CREATE TABLE expiries (node_id INTEGER PRIMARY KEY, expires_at INTEGER NOT NULL);
   CREATE INDEX expiries_due ON expiries (expires_at, node_id);
   ALTER TABLE forgotten ADD COLUMN session_id TEXT;
   CREATE INDEX forgotten_session ON forgotten (session_id, node_id);
   ALTER TABLE vectors ADD COLUMN session TEXT;
   ALTER TABLE vectors ADD COLUMN speaker TEXT;
   ALTER TABLE recent_vectors ADD COLUMN session TEXT;
   ALTER TABLE recent_vectors ADD COLUMN speaker TEXT;`,
  // The agent's usage per UTC day and what of it D1 has been told (src/engine/stores/usage-days.ts).
  `CREATE TABLE usage_days (day TEXT NOT NULL, metric TEXT NOT NULL, value INTEGER NOT NULL, reported INTEGER NOT NULL DEFAULT 0,
     PRIMARY KEY (day, metric));`,
];

/** Runs the steps not run yet, up to `target` (all of them; tests stop earlier to build an old layout). */
export function migrateAgentSchema(sql: SqlStorage, target: number = STEPS.length): void {
  sql.exec("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)");
  const row = sql.exec<{ version: number }>("SELECT version FROM schema_version").toArray()[0];
  let version = row?.version ?? 0;
  if (!row) sql.exec("INSERT INTO schema_version (version) VALUES (0)");
  while (version < target) {
    const step = STEPS[version];
    if (step === undefined) break;
    sql.exec(step);
    version += 1;
    sql.exec("UPDATE schema_version SET version = ?", version);
  }
}
