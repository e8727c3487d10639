/**
 * The focus LRU persisted in the Durable Object's SQLite, with an in-memory copy that is only a
 * cache: it is rebuilt from storage on wake (after eviction the object starts empty).
 */
import type { FocusEntry } from "../../memory/focus-lru";

export class FocusStore {
  private cached: FocusEntry[] | undefined;

  constructor(private readonly sql: SqlStorage) {}

  list(): FocusEntry[] {
    this.cached ??= this.sql
      .exec<{ node_id: number; key: string; name: string }>("SELECT node_id, key, name FROM focus ORDER BY position")
      .toArray()
      .map((r) => ({ nodeId: r.node_id, key: r.key, name: r.name }));
    return [...this.cached];
  }

  ids(): number[] {
    return this.list().map((f) => f.nodeId);
  }

  replace(entries: readonly FocusEntry[]): void {
    this.sql.exec("DELETE FROM focus");
    entries.forEach((e, position) =>
      this.sql.exec("INSERT INTO focus (position, node_id, key, name) VALUES (?, ?, ?, ?)", position, e.nodeId, e.key, e.name),
    );
    this.cached = [...entries];
  }

  clearCache(): void {
    this.cached = undefined;
  }
}
