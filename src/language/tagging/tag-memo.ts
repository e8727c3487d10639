/**
 * A memo of tagged lines (tagged-words.ts, TagMemo), bounded (the most recently used 1,024):
 * a remember tags each segment for its keywords and entities, then again for the episode's
 * summary and, clause by clause, for the conflict judgement; with the memo each line is tagged
 * once. One per model instance, i.e. per agent: never shared between tenants, whose texts must
 * not even change each other's timing.
 */
import type { TagMemo, TaggedWord } from "./tagged-words";
import { LruMap } from "../lru-map";

export class LineTagMemo implements TagMemo {
  private readonly lines = new LruMap<string, readonly TaggedWord[]>(1024);

  line(line: string, tag: (line: string) => readonly TaggedWord[]): readonly TaggedWord[] {
    return this.lines.getOrSet(line, tag);
  }
}
