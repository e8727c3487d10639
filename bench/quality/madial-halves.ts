/**
 * MADial's items in two halves (issue 23): the first half (rounded up, in item order) is where the
 * semantic arm's fusion weight was chosen (src/config/retrieval.ts, with the in-process probe's
 * `--semantic --vector-weights …` at commit fabbb5b), the second half is held
 * back: a figure that holds on the first half only is fitted to it. Exact ids, hit@k.
 *
 * Result key "madialHalves": [MadialHalfEntry].
 */
import { aggregate, type CategorisedScores } from "../lib/aggregate";
import type { K } from "../lib/metrics";
import { fmt, type Table } from "../lib/table";
import type { SplitGroup } from "./split";

export interface MadialHalfEntry {
  config: string;
  group: SplitGroup;
  items: number;
  hit: Record<K, number> | null;
  /** hit@5 ÷ BM25's on the same half. */
  ratio5: number | null;
}

/** The halves of item-ordered rows: the first ⌈n/2⌉ tune, the rest are held back. */
export function halvesOf<T>(rows: readonly T[]): Record<SplitGroup, T[]> {
  const half = Math.ceil(rows.length / 2);
  return { tuning: rows.slice(0, half), "held back": rows.slice(half) };
}

/** Each configuration's hit@k per half, against BM25's rows (`baseline`) on the same half. */
export function madialHalves(
  baseline: readonly CategorisedScores[],
  configs: readonly { name: string; rows: readonly CategorisedScores[] }[],
): MadialHalfEntry[] {
  const groups: SplitGroup[] = ["tuning", "held back"];
  return groups.flatMap((group) => {
    const base = aggregate(halvesOf(baseline)[group].map((r) => r.scores));
    return [{ name: "bm25", rows: baseline }, ...configs].map((c) => {
      const rows = halvesOf(c.rows)[group];
      const hit = aggregate(rows.map((r) => r.scores))?.exact.hit ?? null;
      const b5 = base?.exact.hit[5];
      return { config: c.name, group, items: rows.length, hit, ratio5: hit && b5 ? hit[5] / b5 : null };
    });
  });
}

export function madialHalvesTable(entries: readonly MadialHalfEntry[]): Table[] {
  if (entries.length === 0) return [];
  return [
    {
      title:
        "MADial by half: the first half (items in order) chose the semantic arm's fusion weight, the second is held back (exact ids; ×BM25 on the same half)",
      headers: ["half", "configuration", "items", "hit@1", "hit@5", "hit@10", "hit@5 ×BM25"],
      align: ["left", "left"],
      rows: entries.map((e) => [
        e.group,
        e.config,
        String(e.items),
        fmt(e.hit?.[1], 3),
        fmt(e.hit?.[5], 3),
        fmt(e.hit?.[10], 3),
        e.ratio5 === null ? "–" : `×${fmt(e.ratio5, 2)}`,
      ]),
    },
  ];
}
