/**
 * Render timings of the web view on a large agent, in headless Chromium against a local Worker:
 *
 *   npm run measure:web [-- --nodes 2000 --expand 200 --runs 3] [--url http://127.0.0.1:8787 --agent <id>]
 *
 * Fills an agent with at least `--nodes` nodes (the speed benchmark's synthetic English and Chinese
 * chat streams, no compression cycles while filling), then times, through the page itself (the
 * User Timing measures it records, web/src/util/timing.ts):
 *   - the focus neighbourhood: from asking for it to the first frame that shows it, and until every
 *     neighbour's details were read and drawn;
 *   - an expansion of an entity by `--expand` neighbours, the same two figures.
 * Each is run `--runs` times; the median and the range are printed. The numbers include the API
 * reads (one GET per node, six at a time), which dominate; the drawing itself is the first figure
 * minus the start nodes' reads. Starts its own Worker on port 8785 with a fresh state folder, or
 * uses a running one (`--url`, e.g. `npm run dev`); an agent that is already big enough is reused.
 */
import os from "node:os";
import { parseArgs } from "node:util";
import type { Page } from "playwright-core";
import { chatStream } from "../../bench/speed/streams";
import { api, DEV_KEY, launchBrowser, RequestLog, startServer, waitForStatus } from "../test/browser/harness";

const { values } = parseArgs({
  options: {
    nodes: { type: "string", default: "2000" },
    expand: { type: "string", default: "200" },
    runs: { type: "string", default: "3" },
    url: { type: "string" },
    agent: { type: "string", default: "measure-web" },
  },
});
const TARGET = Number(values.nodes);
const EXPAND = Number(values.expand);
const RUNS = Number(values.runs);
const PORT = 8785;
const AGENT = values.agent;

interface Stats {
  nodes: { total: number };
  links: { total: number };
}

async function fill(base: string): Promise<Stats> {
  await api(base, "PUT", `/v1/agents/${AGENT}/config`, { auto_compress: false });
  let stats = await api<Stats>(base, "GET", `/v1/agents/${AGENT}/stats`);
  for (let call = 0; stats.nodes.total < TARGET; call += 1) {
    const messages = chatStream(call % 2 === 0 ? "en" : "zh", 400, 7000 + call, `m${call}`);
    const { task_id } = await api<{ task_id: string }>(base, "POST", `/v1/agents/${AGENT}/remember`, { messages });
    await api(base, "GET", `/v1/agents/${AGENT}/tasks/${task_id}?wait_ms=30000`);
    stats = await api<Stats>(base, "GET", `/v1/agents/${AGENT}/stats?wait_ms=30000`);
    process.stderr.write(`  ${stats.nodes.total} nodes, ${stats.links.total} links\n`);
  }
  return stats;
}

interface Hub {
  id: number;
  name: string;
  links: number;
  /** A memory linked to it: the starting set from which the hub is expanded. */
  memory: { id: number; content: string };
}

/** The entity with the most distinct neighbours (an expansion by `EXPAND` needs at least that many). */
async function hubEntity(base: string): Promise<Hub> {
  const hits = await api<{ items: { node_id: number; content: string }[] }>(base, "POST", `/v1/agents/${AGENT}/search`, {
    query: "Alice Bruno Chen Dmitri Elena Farah 张伟 李娜 王芳 刘洋",
    mode: "keyword",
    kinds: ["entity"],
    top_k: 20,
  });
  let best = { id: 0, name: "", links: 0, far: [] as number[] };
  for (const hit of hits.items) {
    type Link = { source: number; target: number };
    const node = await api<{ links: { outgoing: Link[]; incoming: Link[] } }>(base, "GET", `/v1/agents/${AGENT}/nodes/${hit.node_id}`);
    const far = [...new Set([...node.links.outgoing.map((l) => l.target), ...node.links.incoming.map((l) => l.source)])];
    if (far.length > best.links) best = { id: hit.node_id, name: hit.content, links: far.length, far };
  }
  if (best.links < EXPAND + 10) throw new Error(`no entity with enough neighbours to expand by ${EXPAND} (best: ${best.links})`);
  for (const id of best.far) {
    const node = await api<{ kind: string; content: string; links: { outgoing: unknown[]; incoming: unknown[] } }>(
      base,
      "GET",
      `/v1/agents/${AGENT}/nodes/${id}`,
    );
    // A memory with few links, so that starting from it shows few of the hub's neighbours.
    if (node.kind === "segment" && node.links.outgoing.length + node.links.incoming.length <= 16) {
      return { id: best.id, name: best.name, links: best.links, memory: { id, content: node.content } };
    }
  }
  throw new Error(`no memory with few links next to ${best.name}`);
}

async function lastMeasure(page: Page, name: string): Promise<number> {
  return page.evaluate((n) => performance.getEntriesByName(n).at(-1)?.duration ?? Number.NaN, name);
}

function summary(xs: number[]): string {
  const sorted = [...xs].sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
  return `${median.toFixed(0)} ms (${(sorted[0] ?? 0).toFixed(0)}–${(sorted.at(-1) ?? 0).toFixed(0)})`;
}

const server = values.url ? { url: values.url, stop: () => undefined } : await startServer(PORT);
const log = new RequestLog();
const browser = await launchBrowser(log);
try {
  process.stderr.write(`filling ${AGENT} to ${TARGET} nodes…\n`);
  const stats = await fill(server.url);
  const hub = await hubEntity(server.url);
  const page = await browser.context.newPage();
  await page.goto(`${server.url}/`);
  await page.fill("#api-key", DEV_KEY);
  await page.press("#api-key", "Enter");
  await page.click(`#agent-list button[data-agent-id="${AGENT}"]`);
  await waitForStatus(page, /^Focus: .*complete \d+ ms/, 120_000);

  const neighbourhood = { first: [] as number[], complete: [] as number[], nodes: 0, links: 0 };
  const expansion = { first: [] as number[], complete: [] as number[], nodes: 0 };
  for (let run = 0; run < RUNS; run += 1) {
    await page.click("#start-focus");
    await waitForStatus(page, /^Focus: .*complete \d+ ms/, 120_000);
    neighbourhood.first.push(await lastMeasure(page, "neighbourhood:first-render"));
    neighbourhood.complete.push(await lastMeasure(page, "neighbourhood:complete"));
    const data = await page.locator("#graph").evaluate((el) => ({ ...(el as HTMLCanvasElement).dataset }));
    neighbourhood.nodes = Number(data.nodes);
    neighbourhood.links = Number(data.links);

    // Start from a memory next to the hub entity (found by search), then expand the hub.
    await page.click("#tab-search");
    await page.fill("#search-query", hub.memory.content);
    await page.selectOption("#search-mode", "keyword");
    await page.click('#search-form button[type="submit"]');
    await page.locator(`#search-results button[data-node-id="${hub.memory.id}"]`).click();
    await page.locator('[data-testid="node-title"]', { hasText: `#${hub.memory.id} ` }).waitFor();
    await page.click("#start-selected");
    await waitForStatus(page, /^Around #\d+: .*complete \d+ ms/, 120_000);
    await page.locator(`#node-list button[data-node-id="${hub.id}"]`).click();
    await page.locator('[data-testid="node-title"]', { hasText: `#${hub.id} ` }).waitFor();
    const before = Number(await page.locator("#graph").getAttribute("data-nodes"));
    await page.click("#expand-selected");
    await waitForStatus(page, /^Expanded #\d+: .*complete \d+ ms/, 120_000);
    expansion.first.push(await lastMeasure(page, "expand:first-render"));
    expansion.complete.push(await lastMeasure(page, "expand:complete"));
    expansion.nodes = Number(await page.locator("#graph").getAttribute("data-nodes")) - before;
  }
  const problems = log.problems(server.url, DEV_KEY);
  if (problems.length > 0) throw new Error(`request log: ${problems.join("; ")}`);

  console.log(`agent: ${stats.nodes.total} nodes, ${stats.links.total} links; expanded: entity "${hub.name}" (${hub.links} neighbours)`);
  console.log(
    `machine: ${os.cpus().length} cores, load ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(" ")}; Chromium headless, software rendering`,
  );
  console.log(`runs: ${RUNS} (median, min–max)`);
  console.log(`focus neighbourhood (${neighbourhood.nodes} nodes, ${neighbourhood.links} links shown)`);
  console.log(`  first render  ${summary(neighbourhood.first)}`);
  console.log(`  complete      ${summary(neighbourhood.complete)}`);
  console.log(`expansion by ${expansion.nodes} nodes`);
  console.log(`  first render  ${summary(expansion.first)}`);
  console.log(`  complete      ${summary(expansion.complete)}`);
} finally {
  await browser.close();
  server.stop();
}
