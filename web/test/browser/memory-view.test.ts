/**
 * The web view in a real browser (Debian's Chromium, headless) against a local Worker started here:
 * sign in, pick an agent filled through the API, read the focus and a node's links, recall and
 * search, run compression cycles and watch a memory shrink and be forgotten, a wrong key, a phone
 * screen. Every test also checks the page's request log: own origin only, the key never in a URL.
 */
import { writeFileSync } from "node:fs";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { GHOST_COLOUR, KIND_COLOURS, SELECTED_COLOUR } from "../../src/graph/style";
import { countColour } from "./png";
import { api, browserSuite, artifact, DEV_KEY, fillAgent, signInAndOpen, waitForStatus } from "./harness";

const SEGMENT = KIND_COLOURS.segment ?? "#2f6fd6";
const ENTITY = KIND_COLOURS.entity ?? "#d98a00";

/** Not 8787 (npm run dev) nor 8790–8799 (used by others). */
const PORT = 8783;

/**
 * Four submissions; with the built-in local model the focus ends as Grace, login bug, app, Frank,
 * Erin and "Carol reviews the budget with Dave." (35 characters) is outside the focus neighbourhood.
 */
const TEAM = [
  ["Carol reviews the budget with Dave.", "They meet every Friday at the library."],
  ["昨天讨论了用户系统的登录模块设计，决定采用JWT方案。"],
  ["Erin and Frank planned the Tokyo trip."],
  ["Grace fixed the login bug in the mobile app."],
] as const;
const CHINESE = "昨天讨论了用户系统的登录模块设计，决定采用JWT方案。";
const CAROL = "Carol reviews the budget with Dave.";

// Each test reads an agent of its own; the forgetting one runs with a fast decay and no automatic cycles.
const suite = browserSuite(PORT, async (url) => {
  await Promise.all([
    fillAgent(url, "view-team", TEAM, undefined, "msg", { session_id: "standup-1", metadata: { team: "mobile", sprint: 12 } }),
    fillAgent(url, "recall-team", TEAM),
    fillAgent(url, "forget-team", TEAM, { auto_compress: false, decay_rate: 0.5 }),
  ]);
});
const { newPage, screenshot } = suite;

/** The graph canvas drew nodes of both kinds (its own pixels, not the page around it). */
async function expectGraphDrawn(page: Page, name: string, minimum: Partial<Record<string, number>>): Promise<void> {
  const png = await page.locator("#graph").screenshot();
  writeFileSync(artifact(name), png);
  for (const [colour, least] of Object.entries(minimum)) {
    expect(countColour(png, colour), `pixels of ${colour} in ${name}`).toBeGreaterThan(least ?? 0);
  }
}

async function graphData(page: Page): Promise<Record<string, string>> {
  return page.locator("#graph").evaluate((el) => ({ ...(el as HTMLCanvasElement).dataset }) as Record<string, string>);
}

async function selectFromList(page: Page, label: string): Promise<void> {
  await page.locator("#node-list button", { hasText: label }).first().click();
  await page.locator('[data-testid="node-title"]', { hasText: label }).waitFor();
}

describe("the web view", () => {
  it("signs in by keyboard, lists the agents and shows the focus neighbourhood and a node's links", async () => {
    // The Chinese memory is pinned (docs/design.md, "Pins"): its panel says so.
    const memories = await api<{ items: { node_id: number; content: string }[] }>(
      suite.url,
      "GET",
      "/v1/agents/view-team/memories?limit=50",
    );
    const pinned = memories.items.find((m) => m.content === CHINESE)?.node_id;
    await api(suite.url, "POST", `/v1/agents/view-team/memories/${pinned}/pin`);
    const page = await newPage();
    await page.goto(`${suite.url}/`);
    // Keyboard only: skip link, then the key field.
    await page.keyboard.press("Tab");
    await page.keyboard.press("Tab");
    expect(await page.evaluate(() => document.activeElement?.id)).toBe("api-key");
    await page.keyboard.type(DEV_KEY);
    await page.keyboard.press("Enter");
    const agentButton = page.locator('#agent-list button[data-agent-id="view-team"]');
    await agentButton.waitFor();
    expect(await page.locator("#agent-list button.open-agent").evaluateAll((bs) => bs.map((b) => b.getAttribute("data-agent-id")))).toEqual(
      ["forget-team", "recall-team", "view-team"],
    );
    await agentButton.focus();
    await page.keyboard.press("Enter");
    const status = await waitForStatus(page, /^Focus: .*complete \d+ ms/);
    expect(status).toMatch(/Focus: \d+ nodes and \d+ links shown/);

    // The key stays in this tab's session storage: not in local storage, not in the address.
    expect(await page.evaluate(() => sessionStorage.getItem("agent-memory.api-key"))).toBe(DEV_KEY);
    expect(await page.evaluate(() => localStorage.length)).toBe(0);
    expect(page.url()).not.toContain(DEV_KEY);

    // The focus entities are the start set, and their memories are around them.
    const focus = await api<{ focus: { node_id: number; name: string }[] }>(suite.url, "GET", "/v1/agents/view-team/focus");
    const listed = await page.locator("#node-list button").allTextContents();
    expect(focus.focus.map((f) => f.name)).toEqual(["Grace", "login bug", "app", "Frank", "Erin"]);
    for (const { name } of focus.focus) expect(listed.some((t) => t.includes(name))).toBe(true);
    const data = await graphData(page);
    expect(Number(data.nodes)).toBeGreaterThanOrEqual(focus.focus.length + 3);
    expect(Number(data.links)).toBeGreaterThan(5);
    expect(data.pending).toBe("0");

    // A focus entity, chosen by keyboard from the list: pinned links at strength 1.
    await page.locator("#node-list button", { hasText: "Frank" }).first().focus();
    await page.keyboard.press("Enter");
    const title = page.locator('[data-testid="node-title"]');
    await title.filter({ hasText: "Frank" }).waitFor();
    expect(await title.textContent()).toContain("in focus");
    expect(await page.locator('[data-testid="pinned-memory"]').count()).toBe(0);
    const outRows = page.locator('[data-testid="links-out"] tbody tr');
    expect(await outRows.count()).toBe(2);
    for (const row of await outRows.allTextContents()) {
      expect(row).toContain("pinned");
      expect(row.trim().endsWith("1")).toBe(true);
    }
    expect(await page.locator('[data-testid="importance-terms"]').textContent()).toContain("sum of 2 outgoing link strengths = 1 + 1 = 2");
    expect(await page.locator('[data-testid="node-importance"]').textContent()).toBe("2");
    expect((await graphData(page)).selected).toBe(String(focus.focus.find((f) => f.name === "Frank")?.node_id));

    // Expanding a node adds the neighbours that were not shown: from Frank's memory to 用户系统 (in
    // focus when it was said), from there to the Chinese memory three links from today's focus.
    const expand = async (label: string, reveals: string) => {
      await selectFromList(page, label);
      const before = Number((await graphData(page)).nodes);
      await page.locator('button[data-action="expand"]').click();
      const status = await waitForStatus(page, /^Expanded #\d+: \d+ neighbours/);
      const added = Number(status.match(/: (\d+) neighbours/)?.[1]);
      expect(added).toBeGreaterThan(0);
      await expect.poll(async () => Number((await graphData(page)).nodes)).toBe(before + added);
      expect(await page.locator("#node-list button").allTextContents()).toEqual(expect.arrayContaining([expect.stringContaining(reveals)]));
    };
    await expand("Erin and Frank planned", "用户系统");
    await expand("用户系统", "昨天讨论了用户系统");

    // A Chinese memory renders as stored, marked as Chinese, with its provenance.
    await selectFromList(page, "昨天讨论了用户系统");
    const content = page.locator('[data-testid="node-content"]');
    expect(await content.textContent()).toBe(CHINESE);
    expect(await content.getAttribute("lang")).toBe("zh");
    expect(await page.locator('[data-testid="node-length"]').textContent()).toBe("27 of 27 characters (100% held)");
    expect(await page.locator('[data-testid="node-sources"]').textContent()).toBe("msg-3");
    // Its session and tags (docs/design.md, "Scoping"); it never expires.
    expect(await page.locator('[data-testid="node-session"]').textContent()).toBe("standup-1");
    expect(await page.locator('[data-testid="node-tags"]').textContent()).toBe("team: mobile, sprint: 12");
    expect(await page.locator('[data-testid="node-expires"]').count()).toBe(0);
    expect(await page.locator('[data-testid="pinned-memory"]').textContent()).toBe("pinned memory");
    expect(await page.locator('[data-testid="links-in"] tbody tr').count()).toBeGreaterThan(0);

    await page.locator("#fit-view").click();
    await page.waitForTimeout(600);
    await expectGraphDrawn(page, "network-canvas-1280.png", { [SEGMENT]: 200, [ENTITY]: 200 });
    await screenshot(page, "network-1280x800.png");
  });

  it("recalls exactly the text the agent receives, rings the hits, searches, and shows API errors", async () => {
    const page = await newPage();
    await signInAndOpen(page, suite.url, "recall-team");
    await page.click("#tab-recall");
    // Mostly English memories: the labels default to English; Chinese is one choice away.
    expect(await page.inputValue("#recall-locale")).toBe("en");
    await page.selectOption("#recall-locale", "zh");
    await page.fill("#recall-keywords", "登录, budget");
    await page.click('#recall-form button[type="submit"]');
    await page.locator("#recall-summary", { hasText: "memories and" }).waitFor();
    const request = { keywords: ["登录", "budget"], relations: [], start: "hybrid", locale: "zh" };
    const expected = await api<string>(suite.url, "POST", "/v1/agents/recall-team/recall", { ...request, format: "text" });
    expect(expected).toContain("[记忆]");
    expect(await page.locator("#recall-text").textContent()).toBe(expected);
    const json = await api<{ items: { type: string; node_id?: number }[] }>(suite.url, "POST", "/v1/agents/recall-team/recall", {
      ...request,
      format: "json",
    });
    const hitIds = json.items.flatMap((i) => (i.type === "memory" && i.node_id !== undefined ? [i.node_id] : [])).sort((a, b) => a - b);
    expect(hitIds.length).toBeGreaterThanOrEqual(2);
    await page.waitForFunction(
      (ids) => (document.getElementById("graph") as HTMLCanvasElement).dataset.highlights === ids,
      hitIds.join(" "),
    );
    // Hits outside the neighbourhood (the budget memory) were brought in.
    expect(await page.locator("#node-list button").allTextContents()).toEqual(expect.arrayContaining([expect.stringContaining("Carol")]));
    await screenshot(page, "recall-1280x800.png");

    // The context block for the same keywords within 256 tokens: exactly the text the API gives a
    // model, its memories ringed in the graph.
    await page.fill("#context-budget", "256");
    await page.click('#context-form button[type="submit"]');
    await page.locator("#context-summary", { hasText: "tokens:" }).waitFor();
    const block = await api<{ text: string; used_tokens: number; memories: { node_id: number }[] }>(
      suite.url,
      "POST",
      "/v1/agents/recall-team/context",
      { query: "登录 budget", budget_tokens: 256, include: ["memories", "episodes", "traces"], locale: "zh", format: "json" },
    );
    expect(block.text).toContain("登录");
    expect(block.used_tokens).toBeLessThanOrEqual(256);
    expect(await page.locator("#context-text").textContent()).toBe(block.text);
    expect(await page.locator("#context-summary").textContent()).toContain(
      `${block.used_tokens} of 256 tokens: ${block.memories.length} memories`,
    );
    await page.waitForFunction(
      (ids) => (document.getElementById("graph") as HTMLCanvasElement).dataset.highlights === ids,
      block.memories
        .map((m) => m.node_id)
        .sort((a, b) => a - b)
        .join(" "),
    );
    // A budget the API refuses: its message, the block left as it was.
    await page.fill("#context-budget", "5");
    await page.click('#context-form button[type="submit"]');
    await page.locator("#messages .message", { hasText: "Context block: validation_failed: budget_tokens" }).waitFor();
    expect(await page.locator("#context-text").textContent()).toBe(block.text);
    await page.locator('#messages .message button[aria-label="Dismiss message"]').click();
    expect(await page.locator("#messages .message").count()).toBe(0);
    await page.fill("#context-budget", "256");
    await screenshot(page, "context-1280x800.png");

    // English labels, same memories.
    await page.selectOption("#recall-locale", "en");
    await page.click('#recall-form button[type="submit"]');
    await page.locator("#recall-text", { hasText: "[memory]" }).waitFor();

    // A keyword the API refuses (over 200 characters): its error envelope becomes a message, the page stays.
    await page.fill("#recall-keywords", "x".repeat(201));
    await page.click('#recall-form button[type="submit"]');
    const message = page.locator("#messages .message");
    await message.waitFor();
    expect(await message.textContent()).toMatch(/Recall: validation_failed: keywords\.0: .*\(HTTP 400\)/);
    expect(await page.locator("#agent-view").isVisible()).toBe(true);

    // Search, then the network around its results.
    await page.click("#tab-search");
    await page.fill("#search-query", "Tokyo trip");
    await page.selectOption("#search-mode", "keyword");
    await page.fill("#search-top-k", "3");
    await page.click('#search-form button[type="submit"]');
    const result = page.locator("#search-results button", { hasText: "Erin and Frank planned the Tokyo trip." });
    await result.waitFor();
    expect(await page.locator("#search-results li").count()).toBeLessThanOrEqual(3);
    await page.click("#search-start");
    await waitForStatus(page, /^Search results: .*complete \d+ ms/);
    await page.click("#tab-search");
    await result.click();
    await page.locator('[data-testid="node-content"]', { hasText: "Erin and Frank planned the Tokyo trip." }).waitFor();
    expect((await graphData(page)).selected).toBe(await result.getAttribute("data-node-id"));
  });

  it("runs compression cycles: a memory shrinks, its entities are forgotten, then it is, leaving traces", async () => {
    const page = await newPage();
    await signInAndOpen(page, suite.url, "forget-team");
    // The budget memory is not near the focus: find it, and start from it.
    await page.click("#tab-search");
    await page.fill("#search-query", "Carol budget");
    await page.selectOption("#search-mode", "keyword");
    await page.click('#search-form button[type="submit"]');
    await page.locator("#search-results button", { hasText: CAROL }).waitFor();
    await page.click("#search-start");
    await waitForStatus(page, /^Search results: .*complete \d+ ms/);
    await selectFromList(page, "Carol reviews");
    const length = page.locator('[data-testid="node-length"]');
    expect(await length.textContent()).toBe("35 of 35 characters (100% held)");
    const carolId = Number((await graphData(page)).selected);
    expect(carolId).toBeGreaterThan(0);
    expect((await graphData(page)).ghosts).toBe("0");

    await page.click("#tab-forget");
    expect(await page.inputValue("#decay-rate")).toBe("0.5");
    const held = async () =>
      Number((await page.locator('[data-testid="stats-line"]').textContent())?.match(/^([\d,]+) of/)?.[1]?.replace(/,/g, ""));
    const heldBefore = await held();
    const runCycles = async (n: number) => {
      await page.fill("#cycle-count", String(n));
      await page.click("#run-cycles");
      await page.locator("#cycle-progress", { hasText: `Cycle ${n} of ${n} done` }).waitFor({ timeout: 60_000 });
      await page.locator("#run-cycles:not([disabled])").waitFor();
    };

    // Three cycles at decay 0.5: importance 4 (links at 1 to Carol, Dave and budget, 下文 and its
    // episode at 0.5) → 0.5, so the memory is compressed to ⌊35 × 0.5⌋ characters at most; its
    // entities (importance 3 or 2 → at most 0.375, 5 characters → 1) are deleted: ghosts.
    await runCycles(3);
    await page.click("#tab-node");
    const shrunk = Number((await length.textContent())?.match(/^(\d+) of 35/)?.[1]);
    expect(shrunk).toBeLessThanOrEqual(26);
    expect(shrunk).toBeGreaterThanOrEqual(5);
    expect(Number((await graphData(page)).ghosts)).toBeGreaterThanOrEqual(2);
    expect(await page.locator('[data-testid="links-out"] .badge.dangling').count()).toBe(3);
    expect(await page.locator("#node-list button", { hasText: "forgotten entity: Carol" }).count()).toBe(1);
    await screenshot(page, "forgetting-cycle2-1280x800.png");

    // Two more: 0.125 × 35 < 5, so the memory itself is deleted; the memory after it keeps a dangling link to it.
    await page.click("#tab-forget");
    await runCycles(2);
    expect(await held()).toBeLessThan(heldBefore);
    expect(await page.locator('[data-testid="stats-line"]').textContent()).toContain("5 cycles so far");
    // The chart has one point per cycle read (0 to 5).
    const points = await page.locator("#forgetting-chart polyline.held").getAttribute("points");
    expect(points?.trim().split(/\s+/)).toHaveLength(6);
    await screenshot(page, "forgetting-chart-1280x800.png");
    await page.click("#tab-node");
    await page.locator('[data-testid="ghost-note"]').waitFor();
    expect(await page.locator('[data-testid="node-title"]').textContent()).toContain(`forgotten #${carolId}`);
    const node = await fetch(`${suite.url}/v1/agents/forget-team/nodes/${carolId}`, { headers: { Authorization: `Bearer ${DEV_KEY}` } });
    expect(node.status).toBe(404);
    const tracesTo = await page.locator("#panel-node li").allTextContents();
    // Relations by their English name (the stored 上文 is "previous").
    expect(tracesTo.some((t) => t.includes("previous"))).toBe(true);
    // What is left: the dashed ghosts of the forgotten, one of them selected (ringed).
    await expectGraphDrawn(page, "forgetting-canvas-1280.png", { [GHOST_COLOUR]: 100, [SELECTED_COLOUR]: 20 });
  });

  it("refuses a wrong key with a message and keeps nothing", async () => {
    const page = await newPage();
    await page.goto(`${suite.url}/`);
    await page.fill("#api-key", "not-a-real-key");
    await page.click('#signin-form button[type="submit"]');
    const message = page.locator("#messages .message");
    await message.waitFor();
    expect(await message.textContent()).toContain("Sign-in failed: unauthorized: unknown, revoked or expired API key (HTTP 401)");
    expect(await page.locator("#signin-view").isVisible()).toBe(true);
    expect(await page.locator("#agents-view").isVisible()).toBe(false);
    expect(await page.evaluate(() => sessionStorage.length + localStorage.length)).toBe(0);
    expect(suite.log.requests.some((r) => r.url.includes("not-a-real-key"))).toBe(false);
    await screenshot(page, "wrong-key-1280x800.png");
  });

  it("fits a phone-width screen: graph first, panels below, nothing wider than the screen", async () => {
    const page = await newPage();
    await page.setViewportSize({ width: 390, height: 844 });
    await signInAndOpen(page, suite.url, "view-team");
    const canvas = await page.locator("#graph").boundingBox();
    const side = await page.locator(".side").boundingBox();
    expect(canvas?.width).toBeGreaterThan(330);
    expect(canvas?.height).toBeGreaterThan(300);
    expect((side?.y ?? 0) >= (canvas?.y ?? 0) + (canvas?.height ?? 0)).toBe(true);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await selectFromList(page, "Tokyo");
    expect(await page.locator('[data-testid="node-title"]').isVisible()).toBe(true);
    await expectGraphDrawn(page, "network-canvas-phone.png", { [SEGMENT]: 100, [ENTITY]: 100 });
    await screenshot(page, "network-390x844.png");
  });
});
