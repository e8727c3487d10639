/**
 * The README's picture of the web view, made reproducibly:
 *
 *   npm run docs:screenshot        → docs/web-view.png (1280×800)
 *
 * Starts a Worker on port 8784 with a fresh state folder, tells a small agent about a project in
 * English and Chinese, lets it forget for a few cycles between conversations, and photographs the
 * network around its focus with a memory selected that has lost its entities to forgetting.
 */
import path from "node:path";
import { api, DEV_KEY, fillAgent, launchBrowser, RequestLog, startServer, waitForStatus } from "../test/browser/harness";

const PORT = 8784;
const AGENT = "project-assistant";
const OUT = path.resolve(import.meta.dirname, "..", "..", "docs", "web-view.png");

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

const server = await startServer(PORT);
const log = new RequestLog();
const browser = await launchBrowser(log);
try {
  await fillAgent(server.url, AGENT, EARLY, { auto_compress: false, decay_rate: 0.6 });
  await fillAgent(server.url, AGENT, LATER.slice(0, 1));
  await cycles(server.url, 3);
  await fillAgent(server.url, AGENT, LATER.slice(1));
  await cycles(server.url, 1);

  const page = await browser.context.newPage();
  await page.goto(`${server.url}/`);
  await page.fill("#api-key", DEV_KEY);
  await page.press("#api-key", "Enter");
  await page.click(`#agent-list button[data-agent-id="${AGENT}"]`);
  await waitForStatus(page, /^Focus: .*complete \d+ ms/);
  // Bring in the early memories too (a recall of their keywords), then show one that is fading.
  await page.click("#tab-recall");
  await page.fill("#recall-keywords", "budget, Phoenix, 登录");
  await page.click('#recall-form button[type="submit"]');
  await page.locator("#recall-summary", { hasText: "memories and" }).waitFor();
  await page.locator("#node-list button", { hasText: "Carol reviews" }).first().click();
  await page.waitForTimeout(1500);
  await page.locator("#fit-view").click();
  await page.waitForTimeout(800);
  await page.screenshot({ path: OUT });
  const problems = log.problems(server.url, DEV_KEY);
  if (problems.length > 0) throw new Error(problems.join("; "));
  console.log(`wrote ${OUT}`);
} finally {
  await browser.close();
  server.stop();
}
