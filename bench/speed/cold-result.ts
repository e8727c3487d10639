/**
 * The cold section's settings and result (cold-bench.ts runs it; cold-report.ts reports it): pure,
 * so the report and its unit tests need nothing of the harness.
 */
export type ColdCall = "ping" | "recall" | "search" | "context" | "remember";
export const COLD_CALLS: readonly ColdCall[] = ["ping", "recall", "search", "context", "remember"];

/** How big an agent is: nodes (capacity 10,000 as by default), or a share of the cache's limit. */
export type ColdTarget = { nodes: number } | { shareOfCacheLimit: number };

export interface ColdSize {
  label: string;
  target: ColdTarget;
  rounds: number;
}

export interface ColdSettings {
  rttsMs: number[];
  /** Agents measured together at every round trip. */
  sizes: ColdSize[];
  /** The largest agent grown past the cache's limit, measured after the others (null: not run). */
  past: ColdSize | null;
  /** Messages per remember round. */
  rememberMessages: number;
}

export const COLD_FULL: ColdSettings = {
  rttsMs: [0, 50, 150],
  sizes: [
    { label: "1k", target: { nodes: 1000 }, rounds: 10 },
    { label: "10k", target: { nodes: 10_000 }, rounds: 10 },
    { label: "largest cached", target: { shareOfCacheLimit: 0.95 }, rounds: 5 },
  ],
  past: { label: "past the cache", target: { shareOfCacheLimit: 1.1 }, rounds: 5 },
  rememberMessages: 4,
};

/**
 * `settings` with only the sizes named (`--cold-sizes 1k,10k`: labels, or "largest" and "past");
 * "past" grows the largest cached agent, so it needs "largest" too.
 */
export function selectColdSizes(settings: ColdSettings, names: readonly string[]): ColdSettings {
  const short = (label: string) => label.split(" ")[0] ?? label;
  const known = [...settings.sizes.map((s) => short(s.label)), ...(settings.past ? [short(settings.past.label)] : [])];
  const unknown = names.filter((n) => !known.includes(n));
  if (unknown.length > 0) throw new Error(`unknown cold size ${unknown.join(", ")}: choose from ${known.join(", ")}`);
  const sizes = settings.sizes.filter((s) => names.includes(short(s.label)));
  const past = settings.past && names.includes(short(settings.past.label)) ? settings.past : null;
  if (past && sizes.at(-1) !== settings.sizes.at(-1)) throw new Error(`"${short(past.label)}" grows the largest cached agent: name it too`);
  if (sizes.length === 0) throw new Error("no cold size chosen");
  return { ...settings, sizes, past };
}

export const COLD_QUICK: ColdSettings = {
  rttsMs: [0, 50],
  sizes: [{ label: "1k", target: { nodes: 1000 }, rounds: 2 }],
  past: null,
  rememberMessages: 4,
};

export interface ColdRun {
  size: string;
  nodes: number;
  links: number;
  /** Within GRAPH_MAX_NODES and GRAPH_MAX_LINKS: the object holds the network once loaded. */
  cached: boolean;
  rttMs: number;
  call: ColdCall;
  rounds: number;
  coldP50Ms: number | null;
  coldP95Ms: number | null;
  warmP50Ms: number | null;
  warmP95Ms: number | null;
  /** Medians over the rounds of the cold call's D1 figures (before its answer; callD1). */
  sequentialStatements: number | null;
  statements: number | null;
  rowsRead: number | null;
  warmSequentialStatements: number | null;
  warmRowsRead: number | null;
}

export interface FreshIsolate {
  nodes: number;
  rttMs: number;
  call: ColdCall;
  /** The first call after the server started (its health check ran; nothing else did). */
  firstMs: number;
  /** The same kind of call right after. */
  secondMs: number;
  sequentialStatements: number;
  rowsRead: number;
}

export interface ColdAgent {
  size: string;
  agentId: string;
  nodes: number;
  links: number;
  messages: number;
  buildMs: number;
}

export interface ColdResult {
  settings: ColdSettings;
  limits: { graphMaxNodes: number; graphMaxLinks: number };
  agents: ColdAgent[];
  runs: ColdRun[];
  freshIsolate: FreshIsolate[];
  wallMs: number;
}
