/**
 * The stored intents of the write path (write-path.ts): one row per task whose commit has begun
 * and not finished. Almost always empty, so the store remembers when it knows there is none and
 * answers the "anything to redo?" asked before every task without a query.
 *
 * An intent can be larger than one SQLite value may be (2 MB in a Durable Object; the intent of a
 * remember of 200,000 code points holds its nodes, keywords, index tokens and some 20,000 links):
 * it is stored in parts of at most INTENT_PART_UNITS UTF-16 units, the first in `intents`, the
 * rest in `intent_parts`, never split inside a surrogate pair (a lone half would not survive the
 * UTF-8 round trip).
 */

/** At most 3 bytes of UTF-8 per UTF-16 unit: 500,000 units stay under 1.5 MB. */
export const INTENT_PART_UNITS = 500_000;

export class IntentStore {
  /** Task ids with an intent stored; undefined until the table was read once after a wake. */
  private known: Set<string> | undefined;

  constructor(
    private readonly sql: SqlStorage,
    private readonly partUnits: number = INTENT_PART_UNITS,
  ) {}

  put(taskId: string, intent: string): void {
    this.load().add(taskId);
    const [first = "", ...rest] = splitText(intent, this.partUnits);
    this.sql.exec(
      "INSERT INTO intents (task_id, intent) VALUES (?, ?) ON CONFLICT (task_id) DO UPDATE SET intent = excluded.intent",
      taskId,
      first,
    );
    this.sql.exec("DELETE FROM intent_parts WHERE task_id = ?", taskId);
    for (const [i, body] of rest.entries()) {
      this.sql.exec("INSERT INTO intent_parts (task_id, part, body) VALUES (?, ?, ?)", taskId, i + 1, body);
    }
  }

  get(taskId: string): string | undefined {
    if (!this.load().has(taskId)) return undefined;
    const first = this.sql.exec<{ intent: string }>("SELECT intent FROM intents WHERE task_id = ?", taskId).toArray()[0]?.intent;
    if (first === undefined) return undefined;
    const rest = this.sql.exec<{ body: string }>("SELECT body FROM intent_parts WHERE task_id = ? ORDER BY part", taskId).toArray();
    return first + rest.map((r) => r.body).join("");
  }

  delete(taskId: string): void {
    if (!this.load().has(taskId)) return;
    this.sql.exec("DELETE FROM intents WHERE task_id = ?", taskId);
    this.sql.exec("DELETE FROM intent_parts WHERE task_id = ?", taskId);
    this.known?.delete(taskId);
  }

  /** Forgets what it knows (the table may have changed under it: a rolled-back transaction). */
  forget(): void {
    this.known = undefined;
  }

  private load(): Set<string> {
    this.known ??= new Set(
      this.sql
        .exec<{ task_id: string }>("SELECT task_id FROM intents")
        .toArray()
        .map((r) => r.task_id),
    );
    return this.known;
  }
}

/** `text` in consecutive parts of at most `units` UTF-16 units (one more never), none ending in a high surrogate. */
export function splitText(text: string, units: number): string[] {
  if (text.length <= units) return [text];
  const parts: string[] = [];
  let start = 0;
  while (start < text.length) {
    let end = Math.min(start + units, text.length);
    const last = text.charCodeAt(end - 1);
    // A high surrogate at the cut: keep the pair together (a part of one unit then takes two).
    if (end < text.length && last >= 0xd800 && last <= 0xdbff) end = end - 1 > start ? end - 1 : end + 1;
    parts.push(text.slice(start, end));
    start = end;
  }
  return parts;
}
