/**
 * The sessions remembered into (docs/design.md, "Sessions as a resource"), in the object's
 * `sessions` table: per session, the times of its first and last message (message time, else when
 * it was written) and the messages remembered into it. Written by the bookkeeping `recordSession`
 * of each remember and explicit memory (in the commit's transaction, so a crash redoes it with the
 * write), dropped by the session's deletion. The memories a session holds are counted from the
 * network when asked, since forgetting changes them.
 */
import type { SessionRecord } from "../../memory/write-ops";

export interface SessionRow {
  id: string;
  firstTime: number;
  lastTime: number;
  messages: number;
}

type Row = { id: string; first_time: number; last_time: number; messages: number };

export class SessionStore {
  constructor(private readonly sql: SqlStorage) {}

  /** A write into the session: its span widens, its messages add up. */
  record(session: SessionRecord): void {
    this.sql.exec(
      `INSERT INTO sessions (id, first_time, last_time, messages) VALUES (?, ?, ?, ?)
       ON CONFLICT (id) DO UPDATE SET first_time = min(first_time, excluded.first_time), last_time = max(last_time, excluded.last_time),
         messages = messages + excluded.messages`,
      session.id,
      session.from,
      session.to,
      session.messages,
    );
  }

  drop(id: string): void {
    this.sql.exec("DELETE FROM sessions WHERE id = ?", id);
  }

  get(id: string): SessionRow | undefined {
    const row = this.sql.exec<Row>("SELECT id, first_time, last_time, messages FROM sessions WHERE id = ?", id).toArray()[0];
    return row ? toSession(row) : undefined;
  }

  /** Sessions after `after` in id order, at most `limit`. */
  page(after: string | undefined, limit: number): SessionRow[] {
    return this.sql
      .exec<Row>("SELECT id, first_time, last_time, messages FROM sessions WHERE id > ? ORDER BY id LIMIT ?", after ?? "", limit)
      .toArray()
      .map(toSession);
  }

  clear(): void {
    this.sql.exec("DELETE FROM sessions");
  }
}

function toSession(row: Row): SessionRow {
  return { id: row.id, firstTime: row.first_time, lastTime: row.last_time, messages: row.messages };
}
