/**
 * A table rendered two ways: aligned plain text for stdout, Markdown for docs/BENCHMARKS.md.
 * Pure module, runs in workerd.
 */

export interface Table {
  title: string;
  headers: string[];
  /** Cells already formatted; a row shorter than `headers` is padded with empty cells. */
  rows: string[][];
  /** Per column; by default the first column is left-aligned and the others (numbers) right-aligned. */
  align?: ("left" | "right")[];
}

const alignOf = (t: Table, i: number): "left" | "right" => t.align?.[i] ?? (i === 0 ? "left" : "right");

// Code points, not UTF-16 units, so "–" and Chinese labels do not skew the columns much.
const width = (s: string): number => [...s].length;

function pad(s: string, w: number, align: "left" | "right"): string {
  const fill = " ".repeat(Math.max(0, w - width(s)));
  return align === "left" ? s + fill : fill + s;
}

function cells(t: Table, row: readonly string[]): string[] {
  return t.headers.map((_h, i) => row[i] ?? "");
}

export function renderText(t: Table): string {
  const all = [t.headers, ...t.rows.map((r) => cells(t, r))];
  const widths = t.headers.map((_h, i) => Math.max(...all.map((r) => width(r[i] ?? ""))));
  const line = (r: readonly string[]): string =>
    r
      .map((c, i) => pad(c, widths[i] ?? 0, alignOf(t, i)))
      .join("  ")
      .trimEnd();
  const rule = widths.map((w) => "-".repeat(w)).join("  ");
  return [t.title, line(t.headers), rule, ...t.rows.map((r) => line(cells(t, r)))].join("\n");
}

const escapeMd = (s: string): string => s.replace(/\|/g, "\\|");

export function renderMarkdown(t: Table): string {
  const row = (r: readonly string[]): string => `| ${r.map(escapeMd).join(" | ")} |`;
  const rule = `|${t.headers.map((_h, i) => (alignOf(t, i) === "left" ? " --- " : " ---: ")).join("|")}|`;
  return [`**${escapeMd(t.title)}**`, "", row(t.headers), rule, ...t.rows.map((r) => row(cells(t, r)))].join("\n");
}

/** Several tables separated by blank lines. */
export function renderTables(tables: readonly Table[], format: "text" | "markdown"): string {
  return tables.map(format === "text" ? renderText : renderMarkdown).join("\n\n");
}

/** Fixed decimals; "–" for a missing value (null: e.g. no questions, or a ratio to a zero baseline). */
export function fmt(value: number | null | undefined, decimals = 3): string {
  return value === null || value === undefined || !Number.isFinite(value) ? "–" : value.toFixed(decimals);
}
