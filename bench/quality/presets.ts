/**
 * The quality benchmark's configurations: named presets of agent parameters, all run by default.
 *
 * - `default`: docs/design.md §2 parameters, one compression cycle after every remember (the product as
 *   shipped).
 * - `no-forgetting`: decay 1 and no compression cycle: the network as remembered, the upper bound of
 *   what forgetting can keep.
 * - `pressure`: forgetting that bites during the conversation. Of the two options in the issue (a
 *   cycle after every turn, or a capacity of 30% of the turns) this is the first, fixed once: in this
 *   product a compression cycle is the unit of time, so a conversation of n turns lives through n
 *   cycles. After each session's remember the harness queues as many cycles as the session has
 *   turns (the automatic cycle after remember is off so the count is exactly one per turn), then
 *   waits for the queue to drain before the next session. Every other parameter is docs/design.md §2's.
 *
 * Besides the two query modes, `default` is also asked with parts of recall's scoring switched off
 * (the ablations) and through the search endpoint's three modes, and `no-forgetting`'s LoCoMo agents
 * give the retention curve (quality/extras.ts).
 *
 * The presets are parameters of the product, not of the data: they were chosen before any result
 * and are not tuned to it.
 */
import type { ConfigPatch } from "../driver/agent-api";
import type { Extra } from "./extras";

export interface Preset {
  name: string;
  description: string;
  /** Sent with PUT /config before the first remember. */
  config: ConfigPatch;
  /** Queue one compression cycle per remembered message after each remember call. */
  cyclePerTurn: boolean;
  /** What its agents are asked besides the two query modes (quality/extras.ts). */
  extras: readonly Extra[];
  /** Also ask the context block at 256/512/1024 tokens (context-block.ts): the product as shipped only. */
  contextBlock: boolean;
  /** Also ask the profiles (profile-bench.ts): the product as shipped only. */
  profile: boolean;
}

export const PRESETS: readonly Preset[] = [
  {
    name: "default",
    description: "docs/design.md §2 parameters, one compression cycle after every remember",
    config: { auto_compress: true },
    cyclePerTurn: false,
    extras: ["ablations", "search"],
    contextBlock: true,
    profile: true,
  },
  {
    name: "no-forgetting",
    description: "decay_rate 1, no compression cycles",
    config: { decay_rate: 1, auto_compress: false },
    cyclePerTurn: false,
    extras: ["retention"],
    contextBlock: false,
    profile: false,
  },
  {
    name: "pressure",
    description: "docs/design.md §2 parameters, one compression cycle per turn (queued after each session's remember)",
    config: { auto_compress: false },
    cyclePerTurn: true,
    extras: [],
    contextBlock: false,
    profile: false,
  },
];

/** The presets named in `--config a,b` (all when none), in the canonical order; unknown names throw. */
export function selectPresets(names: readonly string[]): Preset[] {
  if (names.length === 0) return [...PRESETS];
  const known = new Set(PRESETS.map((p) => p.name));
  const unknown = names.filter((n) => !known.has(n));
  if (unknown.length > 0) {
    throw new Error(`unknown configuration(s) ${unknown.join(", ")}; known: ${[...known].join(", ")}`);
  }
  return PRESETS.filter((p) => names.includes(p.name));
}

/** The retention curve: recall after this many compression cycles in total (docs/BENCHMARKS.md). */
export const RETENTION_CYCLES = [0, 50, 100, 200, 400] as const;
