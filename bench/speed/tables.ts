/** The speed run's tables (stdout and docs/BENCHMARKS.md). */
import { goalTable } from "../driver/goal";
import { fmt, type Table } from "../lib/table";
import type { LatencySummary } from "./floor";
import type { ProfileLatency } from "./latency-bench";
import type { ProductionResult, UsageFigures } from "./production-bench";
import { coldTables } from "./cold-report";
import type { SpeedResult } from "./result";

const pct = ["p50", "p95", "p99"] as const;
const latencyHeaders = [...pct.map((p) => `${p} ms`), ...pct.map((p) => `floor ${p}`), ...pct.map((p) => `×floor ${p}`)];
const latencyCells = (l: LatencySummary): string[] => [
  ...pct.map((p) => fmt(l.ms?.[p], 0)),
  ...pct.map((p) => fmt(l.floorMs?.[p], 1)),
  ...pct.map((p) => fmt(l.ratio[p], 2)),
];

function ingestTable(r: SpeedResult): Table {
  const rows = [r.ingest.en, r.ingest.zh].flatMap((i) =>
    i
      ? [
          [
            i.lang,
            String(i.messages),
            `${i.calls}×${i.batch}`,
            ...latencyCells(i.ack),
            fmt(i.wallMs / 1000, 1),
            fmt(i.throughput.wall, 0),
            fmt(i.throughput.remember, 0),
            String(i.nodes),
            String(i.cycles),
          ],
        ]
      : [],
  );
  return {
    title: "remember: acknowledgement latency (enqueue only) and ingestion throughput",
    headers: ["stream", "messages", "calls", ...latencyHeaders, "drain s", "msg/s", "msg/s remember tasks", "nodes", "cycles"],
    rows,
  };
}

function recallTable(r: SpeedResult): Table {
  return {
    title: "recall latency: keywords, depth 2, limit 20, focus full",
    headers: ["nodes", "focus", "items", "reached", ...latencyHeaders],
    rows: r.networks.map((n) => [
      String(n.nodes),
      String(n.recall.focus),
      fmt(n.recall.meanItems, 1),
      fmt(n.recall.meanReached, 0),
      ...latencyCells(n.recall.latency),
    ]),
  };
}

function searchTable(r: SpeedResult): Table {
  return {
    title: "search latency per mode (top_k 20)",
    headers: ["nodes", "mode", "items", ...latencyHeaders],
    align: ["right", "left"],
    rows: r.networks.flatMap((n) =>
      n.search.skipped !== null
        ? [[String(n.nodes), n.search.skipped]]
        : Object.entries(n.search.modes).map(([mode, s]) => [String(n.nodes), mode, fmt(s.meanItems, 1), ...latencyCells(s)]),
    ),
  };
}

function profileRow(nodes: string, read: string, p: ProfileLatency): string[] {
  return [
    nodes,
    read,
    "–",
    `${fmt(p.meanLines, 1)} lines, ${fmt(p.meanChars, 0)} chars, ${fmt(p.meanEntities, 1)} entities`,
    "–",
    ...latencyCells(p),
  ];
}

function contextTable(r: SpeedResult): Table {
  return {
    title: "context block (free-text query, default sections) and profile latency",
    headers: ["nodes", "read", "budget", "memories", "tokens", ...latencyHeaders],
    align: ["right", "left"],
    rows: r.networks.flatMap((n) => [
      [
        String(n.nodes),
        "context",
        String(n.context.budget),
        fmt(n.context.meanMemories, 1),
        fmt(n.context.meanUsedTokens, 0),
        ...latencyCells(n.context.latency),
      ],
      profileRow(String(n.nodes), "profile", n.context.profile),
      profileRow(String(n.nodes), `profile (${n.context.participantProfile.participant})`, n.context.participantProfile),
    ]),
  };
}

function compressTable(r: SpeedResult): Table {
  return {
    title: "compression cycle (server clock)",
    headers: [
      "nodes",
      "cycles",
      "decay p50 ms",
      "decay max ms",
      "cycle p50 ms",
      "scanned",
      "scan rate nodes/s",
      "compressed",
      "deleted",
      "links broken",
    ],
    rows: r.networks.map((n) => {
      const c = n.compress;
      return [
        String(n.nodes),
        String(c.cycles),
        fmt(c.decayMs?.p50, 0),
        fmt(c.decayMsMax, 0),
        fmt(c.cycleMs?.p50, 0),
        String(c.scanned),
        fmt(c.scanRate, 0),
        String(c.compressed),
        String(c.deleted),
        String(c.linksBroken),
      ];
    }),
  };
}

function singleOpsTable(r: SpeedResult): Table {
  const o = r.singleOps;
  return {
    title: o ? `one remember of ${o.messages} messages (POST to applied) and one recall (depth 2) on a small agent` : "single operations",
    headers: ["operation", "samples", ...latencyHeaders],
    align: ["left"],
    rows: o
      ? [
          [`remember ${o.messages} messages`, String(o.samples), ...latencyCells(o.remember)],
          ["recall depth 2", String(o.samples), ...latencyCells(o.recall)],
        ]
      : [],
  };
}

function scanWaitTable(r: SpeedResult): Table {
  return {
    title: "recall sent while a compression scan runs (client side)",
    headers: ["nodes", "probes", "behind a scan", "p50 ms", "max ms", "idle recall p50 ms", "idle recall p95 ms"],
    rows: r.networks.map((n) => [
      String(n.nodes),
      String(n.scanWait.probes),
      String(n.scanWait.behindScan),
      fmt(n.scanWait.ms?.p50, 0),
      fmt(n.scanWait.maxMs, 0),
      fmt(n.recall.latency.ms?.p50, 0),
      fmt(n.recall.latency.ms?.p95, 0),
    ]),
  };
}

function isolationTable(r: SpeedResult): Table {
  const i = r.isolation;
  return {
    title: "agents written concurrently",
    headers: ["agents", "messages", "wall s", "msg/s", "recalls checked", "searches checked", "own marker missed", "leaks"],
    rows: i
      ? [
          [
            String(i.agents),
            String(i.totalMessages),
            fmt(i.wallMs / 1000, 1),
            fmt(i.throughput, 0),
            String(i.recallsChecked),
            String(i.searchesChecked),
            String(i.ownMarkerMisses),
            String(i.leaks.length),
          ],
        ]
      : [],
  };
}

function loadTable(r: SpeedResult): Table {
  const l = r.load;
  const a = l?.accounting;
  return {
    title: l
      ? `load: ${l.agents} agents × ${l.messagesPerAgent} messages written at once (${l.inFlight} requests in flight, calls of ${l.batch}), then every message id accounted for`
      : "load",
    headers: [
      "messages",
      "send s",
      "wall s",
      "msg/s",
      "drain p50 s",
      "slowest drain s",
      "lag p50 s",
      "lag max s",
      "nodes",
      "searches",
      "found once",
      "lost",
      "duplicated",
      "foreign",
      "agents with wrong stats",
      "re-sent",
    ],
    align: ["right"],
    rows:
      l && a
        ? [
            [
              String(l.totalMessages),
              fmt(l.sendMs / 1000, 1),
              fmt(l.wallMs / 1000, 1),
              fmt(l.throughput, 0),
              fmt((l.drainMs?.p50 ?? NaN) / 1000, 1),
              l.slowest ? `${fmt(l.slowest.drainMs / 1000, 1)} (${l.slowest.agent})` : "–",
              fmt((l.lagMs?.p50 ?? NaN) / 1000, 2),
              fmt((l.lagMaxMs ?? NaN) / 1000, 2),
              String(l.nodes),
              String(a.searches),
              String(a.found),
              String(a.lost),
              String(a.duplicated),
              String(a.foreign),
              String(a.agentsWithWrongStats),
              String(l.resent),
            ],
          ]
        : [],
  };
}

function storageTable(r: SpeedResult): Table {
  const s = r.storage;
  const kb = (b: number | null | undefined): string => (b === null || b === undefined ? "n/a" : fmt(b, 0));
  return {
    title: s ? `storage per node (${s.nodes} nodes, ${s.links} links in ${s.agents} agents)` : "storage per node",
    headers: ["what", "bytes per node", "bytes in all"],
    align: ["left"],
    rows: s
      ? [
          ["D1 (rows, links, indexes; with WAL)", kb(s.d1.bytesPerNode), kb(s.d1.bytes)],
          ["D1 without WAL", kb(s.d1.withoutWalPerNode), kb(s.d1.bytes - s.d1.walBytes)],
          ["Durable Objects (queue, focus, local vector index)", kb(s.durableObjects.bytesPerNode), kb(s.durableObjects.bytes)],
          ["local vector index (stats)", kb(s.vectorIndex.bytesPerNode), kb(s.vectorIndex.bytes)],
        ]
      : [],
  };
}

/** The production-shaped run: calls and tokens by operation, then the headline figures. */
function productionTables(r: SpeedResult): Table[] {
  const p = r.production;
  if (!p) return [];
  const ops = Object.keys(p.calls.perRememberByOperation).sort();
  return [
    {
      title: `production (simulated Workers AI${p.settings.timeScale === 1 ? "" : `, time ×${p.settings.timeScale}`}${p.settings.modelPolicy ? `, MODEL_POLICY ${p.settings.modelPolicy}` : ""}): model calls per remember and estimated tokens per 100 messages`,
      headers: ["operation", "calls per remember", "tokens in /100 msgs", "tokens out /100 msgs"],
      align: ["left"],
      rows: ops.map((op) => [
        op,
        fmt(p.calls.perRememberByOperation[op], 2),
        fmt(p.tokensPer100Messages[op]?.in, 0),
        fmt(p.tokensPer100Messages[op]?.out, 0),
      ]),
    },
    {
      title: "production: throughput and recall",
      headers: ["what", "measured"],
      align: ["left", "left"],
      rows: [
        [
          "one agent ingesting (messages/s)",
          `${fmt(p.ingest.messagesPerSecond, 1)} (${p.ingest.messages} messages, ${p.ingest.fallbacks} fallbacks)`,
        ],
        [
          `${p.accounts.agents} agents on one account (messages/min)`,
          `${fmt(p.accounts.messagesPerMinute, 0)} (${p.accounts.messagesRemembered} messages${p.accounts.completed ? "" : ", stopped at the cap"}, ${p.accounts.refused429} 429s, ${p.accounts.fallbacks} fallbacks)`,
        ],
        ["text calls per remember / per recall", `${fmt(p.calls.textPerRemember, 2)} / ${fmt(p.calls.textPerRecall, 2)}`],
        ["embedding calls per remember", fmt(p.calls.embeddingPerRemember, 2)],
        ["free-text recall p50 / p95 (ms)", `${fmt(p.recall.p50Ms, 0)} / ${fmt(p.recall.p95Ms, 0)}`],
        ["floor p50 / p95 (ms)", `${fmt(p.recall.floorP50Ms, 0)} / ${fmt(p.recall.floorP95Ms, 0)}`],
      ],
    },
    usageTable(p),
    rowsByKindTable(p),
    objectRowsByKindTable(p),
  ];
}

/** What the run spent of the billed platform resources, per 1,000 messages and per 1,000 recalls. */
function usageTable(p: ProductionResult): Table {
  const m = p.usage.perThousandMessages;
  const r = p.usage.perThousandRecalls;
  const row = (what: string, pick: (u: UsageFigures) => number | null, digits = 0): string[] => [
    what,
    fmt(pick(m), digits),
    fmt(pick(r), digits),
  ];
  return {
    title: `production: platform usage (the agent's counters; ${p.usage.vectorsStored ?? "?"} vectors of ${fmt(p.usage.vectorDimensions, 0)} dimensions stored after ingestion${p.settings.timeScale === 1 ? "" : "; active time and CPU in real time, not scaled"})`,
    headers: ["per 1,000", "messages remembered", "recalls"],
    align: ["left"],
    rows: [
      row("Worker requests", (u) => u.workerRequests),
      row("Durable Object requests (probes left out)", (u) => u.doRequests),
      row("Durable Object active time (s)", (u) => u.doActiveMs / 1000, 1),
      row("D1 rows read", (u) => u.d1RowsRead),
      row("D1 rows written", (u) => u.d1RowsWritten),
      row("D1 statements not metered", (u) => u.d1StatementsUnmetered),
      row("Durable Object SQLite rows read", (u) => u.doRowsRead),
      row("Durable Object SQLite rows written (alarms not included)", (u) => u.doRowsWritten),
      row("vector queries", (u) => u.vectorQueries),
      row("vectors upserted", (u) => u.vectorsUpserted),
      row("vector dimensions upserted", (u) => u.vectorDimensionsUpserted),
      row("workerd CPU (s, upper bound)", (u) => (u.workerdCpuMs === null ? null : u.workerdCpuMs / 1000), 1),
    ],
  };
}

/** Where the object's own SQLite rows written go, by kind of statement (metered-do-sql.ts). */
function objectRowsByKindTable(p: ProductionResult): Table {
  const m = p.usage.perThousandMessages;
  const r = p.usage.perThousandRecalls;
  const kinds = [...new Set([...Object.keys(m.doRowsWrittenByKind), ...Object.keys(r.doRowsWrittenByKind)])];
  kinds.sort((a, b) => (m.doRowsWrittenByKind[b] ?? 0) - (m.doRowsWrittenByKind[a] ?? 0) || a.localeCompare(b));
  return {
    title: "production: the Durable Object's own SQLite rows written by kind of statement, per 1,000 messages and per 1,000 recalls",
    headers: ["statement", "per 1,000 messages", "per 1,000 recalls"],
    align: ["left"],
    rows: kinds.map((k) => [k, fmt(m.doRowsWrittenByKind[k] ?? 0, 0), fmt(r.doRowsWrittenByKind[k] ?? 0, 0)]),
  };
}

/** Where the D1 rows written (and read) go, by kind of statement (metered-d1.ts, statementKind). */
function rowsByKindTable(p: ProductionResult): Table {
  const m = p.usage.perThousandMessages;
  const r = p.usage.perThousandRecalls;
  const kinds = [
    ...new Set([...Object.keys(m.d1RowsWrittenByKind), ...Object.keys(m.d1RowsReadByKind), ...Object.keys(r.d1RowsReadByKind)]),
  ];
  kinds.sort((a, b) => (m.d1RowsWrittenByKind[b] ?? 0) - (m.d1RowsWrittenByKind[a] ?? 0) || a.localeCompare(b));
  const share = (n: number | undefined): string =>
    n === undefined || m.d1RowsWritten === 0 ? "" : `${fmt((100 * n) / m.d1RowsWritten, 1)} %`;
  return {
    title: "production: D1 rows by kind of statement, per 1,000 messages remembered (written, read) and per 1,000 recalls (read)",
    headers: ["statement", "rows written", "share", "rows read (messages)", "rows read (recalls)"],
    align: ["left"],
    rows: kinds.map((k) => [
      k,
      fmt(m.d1RowsWrittenByKind[k] ?? 0, 0),
      share(m.d1RowsWrittenByKind[k]),
      fmt(m.d1RowsReadByKind[k] ?? 0, 0),
      fmt(r.d1RowsReadByKind[k] ?? 0, 0),
    ]),
  };
}

export function speedTables(r: SpeedResult): Table[] {
  return [
    ingestTable(r),
    singleOpsTable(r),
    recallTable(r),
    searchTable(r),
    contextTable(r),
    compressTable(r),
    scanWaitTable(r),
    isolationTable(r),
    loadTable(r),
    storageTable(r),
    ...productionTables(r),
    ...coldTables(r.cold),
    goalTable("Speed goals", r.goals),
  ];
}
