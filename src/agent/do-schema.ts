/**
 * The agent Durable Object's own SQLite schema: the durable task queue, the focus LRU and a small
 * key-value table. Versioned: each step runs once, in order, inside the start-up gate.
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
];

export function migrateAgentSchema(sql: SqlStorage): void {
  sql.exec("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)");
  const row = sql.exec<{ version: number }>("SELECT version FROM schema_version").toArray()[0];
  let version = row?.version ?? 0;
  if (!row) sql.exec("INSERT INTO schema_version (version) VALUES (0)");
  while (version < STEPS.length) {
    const step = STEPS[version];
    if (step === undefined) break;
    sql.exec(step);
    version += 1;
    sql.exec("UPDATE schema_version SET version = ?", version);
  }
}

export const AGENT_SCHEMA_VERSION = STEPS.length;
