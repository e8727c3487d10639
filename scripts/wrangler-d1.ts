/**
 * A D1 binding for the operator's CLI (scripts/operator.ts) that runs each statement with
 * `wrangler d1 execute`: against the remote primary database by default, or the local server's
 * (`--local`, .wrangler/state). It lets the CLI run the very service code the admin API runs
 * (src/service/), so both behave alike. wrangler takes SQL text only, so parameters are written
 * into the statement as SQL literals (strings quoted, numbers as digits, null); a batch is sent as
 * one command. Only what drizzle's D1 driver calls is implemented: prepare, bind, all, first,
 * run, raw, batch.
 */
import { spawnSync } from "node:child_process";
import path from "node:path";
import { applyLocalMigrations, offlineEnv, ROOT } from "./local-server.mjs";

type Value = string | number | null;

function literal(value: unknown): string {
  if (value === null || value === undefined) return "NULL";
  if (typeof value === "number") {
    if (!Number.isFinite(value)) throw new Error(`not a finite number: ${value}`);
    return String(value);
  }
  if (typeof value === "boolean") return value ? "1" : "0";
  if (typeof value === "string") {
    if (value.includes("\u0000")) throw new Error("a text with a NUL character cannot be sent");
    return `'${value.replaceAll("'", "''")}'`;
  }
  throw new Error(`unsupported parameter type ${typeof value}`);
}

/** The statement with its `?` placeholders (outside quotes) replaced by the parameters' literals. */
export function inlineParams(sql: string, params: readonly unknown[]): string {
  let out = "";
  let next = 0;
  let quote: string | null = null;
  for (const ch of sql) {
    if (quote !== null) {
      if (ch === quote) quote = null;
      out += ch;
    } else if (ch === "'" || ch === '"' || ch === "`") {
      quote = ch;
      out += ch;
    } else if (ch === "?") {
      if (next >= params.length) throw new Error("more placeholders than parameters");
      out += literal(params[next++]);
    } else {
      out += ch;
    }
  }
  if (next !== params.length) throw new Error("more parameters than placeholders");
  return out;
}

interface ExecuteResult {
  results: Record<string, Value>[];
  success: boolean;
}

export interface WranglerTarget {
  local: boolean;
  /** The local state directory (default .wrangler/state, the `npm run dev` database). */
  persistTo?: string | undefined;
}

function persistDir(target: WranglerTarget): string {
  return target.persistTo ?? path.join(ROOT, ".wrangler", "state");
}

/** Runs SQL text with wrangler; one result per statement. */
function execute(target: WranglerTarget, sql: string): ExecuteResult[] {
  const args = target.local
    ? ["--local", "-c", "wrangler.local.toml", "--persist-to", persistDir(target)]
    : ["--remote", "-c", "wrangler.toml"];
  const result = spawnSync(
    path.join(ROOT, "node_modules", ".bin", "wrangler"),
    ["d1", "execute", "DB", ...args, "--json", "--command", sql],
    {
      cwd: ROOT,
      env: target.local ? offlineEnv() : process.env,
      encoding: "utf8",
      maxBuffer: 64 * 1024 * 1024,
    },
  );
  if (result.status !== 0) throw new Error(`wrangler d1 execute failed (exit ${result.status})\n${result.stderr}${result.stdout}`);
  const text = result.stdout;
  const start = text.indexOf("[");
  if (start < 0) throw new Error(`wrangler d1 execute answered no JSON\n${text}`);
  return JSON.parse(text.slice(start)) as ExecuteResult[];
}

class Statement {
  constructor(
    private readonly target: WranglerTarget,
    readonly sql: string,
    readonly params: readonly unknown[] = [],
  ) {}

  bind(...values: unknown[]): Statement {
    return new Statement(this.target, this.sql, values);
  }

  text(): string {
    return inlineParams(this.sql, this.params);
  }

  async all(): Promise<{ results: Record<string, Value>[]; success: boolean; meta: Record<string, never> }> {
    const [first] = execute(this.target, this.text());
    return { results: first?.results ?? [], success: true, meta: {} };
  }

  async first(column?: string): Promise<unknown> {
    const row = (await this.all()).results[0];
    if (row === undefined) return null;
    return column === undefined ? row : row[column];
  }

  async run() {
    return this.all();
  }

  async raw(): Promise<Value[][]> {
    return (await this.all()).results.map((row) => Object.values(row));
  }
}

export class WranglerD1 {
  constructor(private readonly target: WranglerTarget) {
    // The local database gets the migrations first, as `npm run dev` does.
    if (target.local) applyLocalMigrations({ persistTo: persistDir(target) });
  }

  prepare(sql: string): Statement {
    return new Statement(this.target, sql);
  }

  async batch(statements: Statement[]) {
    const results = execute(this.target, statements.map((s) => s.text()).join(";\n"));
    return results.map((r) => ({ results: r.results, success: true, meta: {} }));
  }

  /** What the Worker's code takes: a D1Database (only the methods above are ever called). */
  asD1(): D1Database {
    return this as unknown as D1Database;
  }
}
