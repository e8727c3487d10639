/**
 * The pictures of the web view in README.md and docs/web-view.md, made reproducibly:
 *
 *   npm run docs:screenshot   → docs/web-view.png         the network around the focus, a fading memory selected
 *                               docs/web-view-recall.png  after a recall: the text the agent receives, its hits ringed
 *                               docs/web-view-cycles.png  after the compression cycles the page suggests: ghosts, the chart
 *
 * Starts a Worker on port 8784 with a fresh state folder, tells a small agent about a project in
 * English and Chinese, lets it forget for a few cycles between conversations, and photographs the
 * page at 1280×800. Fails if the page logged an error or a request failed.
 */
import path from "node:path";
import type { Page } from "playwright-core";
import { api, DEV_KEY, fillAgent, launchBrowser, RequestLog, startServer, waitForStatus } from "../test/browser/harness";

const PORT = 8784;
const AGENT = "project-assistant";
const DOCS = path.resolve(import.meta.dirname, "..", "..", "docs");

const EARLY = [
  ["Alice leads the Phoenix project; Bob joined it in March.", "The Phoenix kickoff is on Monday in the Lisbon office."],
  ["Carol reviews the budget with Dave every Friday.", "Dave wants the budget cut by ten percent."],
];
const LATER = [
  ["昨天讨论了用户系统的登录模块设计，决定采用JWT方案。", "前端组还提到需要支持第三方登录，这个需求优先级待定。"],
  ["架构评审时强调了安全性，建议使用短时效token。"],
  ["Grace fixed the login bug in the mobile app.", "Alice asked Grace to write a post-mortem about the login bug."],
];

async function cycles(base: string, n: number): Promise<void> {
  await api(base, "POST", `/v1/agents/${AGENT}/compress`, { cycles: n });
  await api(base, "GET", `/v1/agents/${AGENT}/stats?wait_ms=30000`);
}

/** Waits until the layout has settled and the frame after it is drawn. */
async function settled(page: Page): Promise<void> {
  await page.waitForFunction(() => document.getElementById("graph")?.dataset.layout === "settled", undefined, { timeout: 30_000 });
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
}

async function shoot(page: Page, name: string): Promise<void> {
  await settled(page);
  const out = path.join(DOCS, name);
  await page.screenshot({ path: out });
  console.log(`wrote ${path.relative(process.cwd(), out)}`);
}

const server = await startServer(PORT);
const log = new RequestLog();
const browser = await launchBrowser(log);
const failures: string[] = [];
try {
  await fillAgent(server.url, AGENT, EARLY, { auto_compress: false, decay_rate: 0.6 });
  await fillAgent(server.url, AGENT, LATER.slice(0, 1), undefined, "later");
  await cycles(server.url, 3);
  await fillAgent(server.url, AGENT, LATER.slice(1), undefined, "last");
  await cycles(server.url, 1);

  const page = await browser.context.newPage();
  page.on("console", (m) => {
    if (m.type() === "error") failures.push(`console error: ${m.text()}`);
  });
  page.on("response", (r) => {
    if (r.status() >= 400) failures.push(`HTTP ${r.status()}: ${r.url()}`);
  });
  page.on("requestfailed", (r) => failures.push(`request failed: ${r.url()}`));
  await page.goto(`${server.url}/`);
  await page.fill("#api-key", DEV_KEY);
  await page.press("#api-key", "Enter");
  await page.click(`#agent-list button[data-agent-id="${AGENT}"]`);
  await waitForStatus(page, /^Focus: .*complete \d+ ms/);

  // After a recall: bring in the early memories too (a recall of their keywords), hits ringed.
  await page.click("#tab-recall");
  await page.fill("#recall-keywords", "budget, Phoenix, login");
  await page.click('#recall-form button[type="submit"]');
  await page.locator("#recall-summary", { hasText: "memories and" }).waitFor();
  await shoot(page, "web-view-recall.png");

  // The network with a memory that is fading selected.
  await page.locator("#node-list button", { hasText: "Carol reviews" }).first().click();
  await shoot(page, "web-view.png");

  // After the cycles the page suggests at the agent's decay rate (0.6), around the Chinese memories
  // (the recall moved the focus to the early ones, which it now holds): shrunk contents, ghosts, the chart.
  await page.click("#tab-search");
  await page.fill("#search-query", "登录模块 JWT");
  await page.click('#search-form button[type="submit"]');
  await page.locator("#search-results button").first().waitFor();
  await page.click("#search-start");
  await waitForStatus(page, /^Search results: .*complete \d+ ms/);
  await page.click("#tab-forget");
  await page.locator("#use-suggested-cycles:not([hidden])").click();
  const n = await page.inputValue("#cycle-count");
  await page.click("#run-cycles");
  await page.locator("#cycle-progress", { hasText: `Cycle ${n} of ${n} done` }).waitFor({ timeout: 120_000 });
  await shoot(page, "web-view-cycles.png");

  const problems = [...log.problems(server.url, DEV_KEY), ...failures];
  if (problems.length > 0) throw new Error(problems.join("; "));
} finally {
  await browser.close();
  server.stop();
}
