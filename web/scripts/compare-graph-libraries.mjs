// How the candidate graph libraries draw a memory-like network of a few thousand elements in the
// Chromium the tests use (headless, software rendering): the measurement behind the choice of
// d3-force with our own canvas drawing (docs/web-view.md). The candidates are not dependencies of
// the project; install them elsewhere first:
//
//   npm install --prefix /tmp/graph-libs cytoscape@3.34.4 sigma@3.0.3 graphology@0.26.0
//   node web/scripts/compare-graph-libraries.mjs --modules /tmp/graph-libs/node_modules [--sizes 500,2000,5000]
//
// Each page gets the same synthetic graph (10% entities; every memory links to three entities and
// to the next memory: n nodes, about 3.6·n links) with precomputed positions, and reports the time
// to its first drawn frame and to ten zoom steps (one redraw each). d3-force also reports 300
// layout ticks, the cost of settling a layout from scratch.
import { build } from "esbuild";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { chromium } from "playwright-core";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
const { values } = parseArgs({
  options: { modules: { type: "string" }, sizes: { type: "string", default: "500,2000,5000" }, port: { type: "string", default: "8781" } },
});
if (!values.modules) {
  console.error("usage: node web/scripts/compare-graph-libraries.mjs --modules <node_modules with cytoscape, sigma, graphology>");
  process.exit(2);
}

const GRAPH = `
export function makeGraph(n) {
  const entities = Math.max(5, Math.round(n * 0.1));
  const nodes = [];
  const edges = [];
  let seed = 42;
  const rand = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  for (let i = 0; i < n; i++) {
    const a = (i / n) * Math.PI * 14;
    const r = 50 + (i / n) * 1500;
    nodes.push({ id: "n" + i, kind: i < entities ? "entity" : "segment", size: 4 + rand() * 12, x: Math.cos(a) * r, y: Math.sin(a) * r });
  }
  for (let i = entities; i < n; i++) {
    for (let k = 0; k < 3; k++) edges.push({ id: "e" + i + "-" + k, s: "n" + i, t: "n" + Math.floor(rand() * entities), w: rand() });
    if (i + 1 < n) edges.push({ id: "e" + i + "-next", s: "n" + i, t: "n" + (i + 1), w: 0.5 });
  }
  return { nodes, edges };
}
export const frame = () => new Promise((r) => requestAnimationFrame(() => r()));
export const n = Number(new URLSearchParams(location.search).get("n"));
export async function report(name, t0, redraw) {
  await frame();
  await frame();
  const first = performance.now() - t0;
  const t1 = performance.now();
  for (let i = 0; i < 10; i++) {
    redraw(i);
    await frame();
  }
  window.__result = { name, first, redraw10: performance.now() - t1 };
}`;

const PAGES = {
  cytoscape: `
import cytoscape from "cytoscape";
import { makeGraph, n, report } from "./graph.js";
const g = makeGraph(n);
const t0 = performance.now();
const cy = cytoscape({
  container: document.getElementById("c"),
  elements: [
    ...g.nodes.map((d) => ({ data: { id: d.id, kind: d.kind, size: d.size }, position: { x: d.x, y: d.y } })),
    ...g.edges.map((e) => ({ data: { id: e.id, source: e.s, target: e.t, w: e.w } })),
  ],
  layout: { name: "preset" },
  style: [
    { selector: "node", style: { width: "data(size)", height: "data(size)", "background-color": "#2f6fd6" } },
    { selector: "node[kind='entity']", style: { "background-color": "#d98a00" } },
    { selector: "edge", style: { width: "mapData(w, 0, 1, 0.5, 4)", "line-color": "#999", "curve-style": "straight" } },
  ],
});
await report("cytoscape (canvas)", t0, () => cy.zoom(cy.zoom() * 1.05));`,
  sigma: `
import Graph from "graphology";
import Sigma from "sigma";
import { makeGraph, n, report } from "./graph.js";
const g = makeGraph(n);
const t0 = performance.now();
const graph = new Graph({ multi: true });
for (const d of g.nodes) graph.addNode(d.id, { x: d.x, y: d.y, size: d.size / 2, color: d.kind === "entity" ? "#d98a00" : "#2f6fd6" });
for (const e of g.edges) graph.addEdgeWithKey(e.id, e.s, e.t, { size: 0.5 + e.w * 3, color: "#999" });
const sigma = new Sigma(graph, document.getElementById("c"));
const camera = sigma.getCamera();
await report("sigma + graphology (WebGL)", t0, () => camera.setState({ ratio: camera.ratio * 0.95 }));`,
  "d3-force": `
import { forceCenter, forceLink, forceManyBody, forceSimulation } from "d3-force";
import { makeGraph, n, report } from "./graph.js";
const g = makeGraph(n);
const canvas = document.getElementById("k");
const ctx = canvas.getContext("2d");
let scale = 0.2;
const t0 = performance.now();
const nodes = g.nodes.map((d) => ({ ...d }));
const byId = new Map(nodes.map((d) => [d.id, d]));
const links = g.edges.map((e) => ({ source: byId.get(e.s), target: byId.get(e.t), w: e.w }));
function draw() {
  ctx.setTransform(1, 0, 0, 1, 0, 0);
  ctx.clearRect(0, 0, canvas.width, canvas.height);
  ctx.setTransform(scale, 0, 0, scale, canvas.width / 2, canvas.height / 2);
  ctx.strokeStyle = "#999";
  for (const l of links) {
    ctx.lineWidth = 0.5 + l.w * 3;
    ctx.beginPath();
    ctx.moveTo(l.source.x, l.source.y);
    ctx.lineTo(l.target.x, l.target.y);
    ctx.stroke();
  }
  for (const d of nodes) {
    ctx.fillStyle = d.kind === "entity" ? "#d98a00" : "#2f6fd6";
    ctx.beginPath();
    ctx.arc(d.x, d.y, d.size / 2, 0, Math.PI * 2);
    ctx.fill();
  }
}
draw();
await report("d3-force + own canvas 2D", t0, () => {
  scale *= 1.05;
  draw();
});
const t2 = performance.now();
forceSimulation(nodes).force("link", forceLink(links)).force("charge", forceManyBody()).force("center", forceCenter()).stop().tick(300);
window.__result.layout300 = performance.now() - t2;`,
};

const dir = mkdtempSync(path.join(os.tmpdir(), "graph-libs-"));
writeFileSync(path.join(dir, "graph.js"), GRAPH);
for (const [name, source] of Object.entries(PAGES)) {
  writeFileSync(path.join(dir, `${name}.src.js`), source);
  await build({
    entryPoints: [path.join(dir, `${name}.src.js`)],
    outfile: path.join(dir, `${name}.js`),
    bundle: true,
    format: "esm",
    minify: true,
    nodePaths: [path.resolve(values.modules), path.join(ROOT, "node_modules")],
    logLevel: "error",
  });
  writeFileSync(
    path.join(dir, `${name}.html`),
    `<!doctype html><div id="c" style="width:1280px;height:800px"></div><canvas id="k" width="1280" height="800"></canvas><script type="module" src="${name}.js"></script>`,
  );
}

const server = http
  .createServer((req, res) => {
    const file = path.join(dir, path.basename(new URL(req.url ?? "/", "http://x").pathname));
    try {
      const body = readFileSync(file);
      res.writeHead(200, { "content-type": file.endsWith(".js") ? "text/javascript" : "text/html" });
      res.end(body);
    } catch {
      res.writeHead(404);
      res.end();
    }
  })
  .listen(Number(values.port), "127.0.0.1");
const profile = mkdtempSync(path.join(os.tmpdir(), "graph-libs-profile-"));
const context = await chromium.launchPersistentContext(profile, {
  executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
  headless: true,
  args: [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-quic",
    "--no-first-run",
  ],
  viewport: { width: 1280, height: 800 },
});
try {
  console.log(
    `Chromium headless, software rendering; ${os.cpus().length} cores, load ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(" ")}`,
  );
  console.log("library | nodes | links | first frame | 10 redraws | 300 layout ticks");
  for (const size of values.sizes.split(",").map(Number)) {
    for (const name of Object.keys(PAGES)) {
      const page = await context.newPage();
      await page.goto(`http://127.0.0.1:${values.port}/${name}.html?n=${size}`);
      await page.waitForFunction(
        () => window.__result && (!window.__result.name.startsWith("d3") || window.__result.layout300 !== undefined),
        null,
        {
          timeout: 180_000,
        },
      );
      const r = await page.evaluate(() => window.__result);
      const links = Math.round((size - Math.max(5, Math.round(size * 0.1))) * 4 - 1);
      const ms = (x) => (x === undefined ? "—" : `${x.toFixed(0)} ms`);
      console.log(`${r.name} | ${size} | ${links} | ${ms(r.first)} | ${ms(r.redraw10)} | ${ms(r.layout300)}`);
      await page.close();
    }
  }
} finally {
  await context.close();
  server.close();
  rmSync(dir, { recursive: true, force: true });
  rmSync(profile, { recursive: true, force: true });
}
