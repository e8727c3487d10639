/**
 * A goal the numbers are held against (docs/BENCHMARKS.md lists them), as recorded in the results:
 * what was asked, what was measured, and whether it was met (null: not evaluated in this run, e.g.
 * a configuration it needs was not run, or the search endpoint is missing).
 */
import type { Table } from "../lib/table";

export interface Goal {
  id: string;
  goal: string;
  measured: string;
  met: boolean | null;
  /** Why it was not evaluated, or a caveat (a --quick run). */
  note: string | null;
}

export function goalTable(title: string, goals: readonly Goal[]): Table {
  return {
    title,
    headers: ["goal", "measured", "met", "note"],
    align: ["left", "left", "left", "left"],
    rows: goals.map((g) => [g.goal, g.measured, g.met === null ? "–" : g.met ? "yes" : "NO", g.note ?? ""]),
  };
}
