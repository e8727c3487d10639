/**
 * Corrections in a real browser (Debian's Chromium, headless) against a local Worker started here:
 * add a memory through the page, edit it (the new version selected, the old one marked superseded),
 * link two memories, delete one after cancelling once and then confirming (it turns into a ghost),
 * purge one (it leaves the graph). Each result is checked through the API too, and the page's
 * request log: own origin only, the key never in a URL.
 */
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { api, browserSuite, DEV_KEY, fillAgent, signInAndOpen, waitForStatus } from "./harness";

/** Not 8783 (memory-view.test.ts), 8787 (npm run dev) nor 8790–8799 (used by others). */
const PORT = 8784;
const AGENT = "fix-team";

const TEAM = [["Erin and Frank planned the Tokyo trip."], ["Grace fixed the login bug in the mobile app."]] as const;
const HEIDI = "Heidi repaired the lighthouse lamp in Bergen.";
const HEIDI_EDITED = "Heidi repaired the lighthouse lamp in Stavanger.";
const CHINESE = "小红在图书馆借了三本关于灯塔的书。";

interface NodeJson {
  node_id: number;
  content: string;
  superseded_by: number | null;
  links: { outgoing: { target: number; relation: string; dangling: boolean }[]; incoming: { source: number }[] };
}

const suite = browserSuite(PORT, (url) =>
  // No automatic compression cycles: what the test sees is what its own writes did.
  fillAgent(url, AGENT, TEAM, { auto_compress: false }),
);
const { newPage, screenshot } = suite;

async function graphData(page: Page): Promise<Record<string, string>> {
  return page.locator("#graph").evaluate((el) => ({ ...(el as HTMLCanvasElement).dataset }) as Record<string, string>);
}

const ids = (list: string | undefined) => (list ?? "").split(" ").filter(Boolean).map(Number);

/** GET nodes/:id through the API: the node, or null on 404. */
async function node(id: number): Promise<NodeJson | null> {
  const res = await fetch(`${suite.url}/v1/agents/${AGENT}/nodes/${id}`, { headers: { Authorization: `Bearer ${DEV_KEY}` } });
  if (res.status === 404) return null;
  expect(res.status).toBe(200);
  return (await res.json()) as NodeJson;
}

async function addThroughPage(page: Page, content: string): Promise<number> {
  await page.click("#tab-write");
  await page.fill("#add-content", content);
  await page.click("#add-submit");
  // The Write tab says what was added (the status line may still show the previous write).
  const result = await page.waitForFunction(
    (start) => {
      const text = document.getElementById("add-result")?.textContent ?? "";
      return text.includes(start) ? text : false;
    },
    `“${content.slice(0, 12)}`,
  );
  const id = Number(/^Added #(\d+)/.exec(String(await result.jsonValue()))?.[1]);
  expect(await page.locator("#graph-status").textContent()).toMatch(new RegExp(`^Added memory #${id}`));
  await page.waitForFunction((want) => (document.getElementById("graph") as HTMLCanvasElement).dataset.selected === want, String(id));
  await page.locator('[data-testid="node-content"]', { hasText: content }).waitFor();
  return id;
}

async function selectNode(page: Page, id: number): Promise<void> {
  await page.locator(`#node-list button[data-node-id="${id}"]`).click();
  await page.waitForFunction((want) => (document.getElementById("graph") as HTMLCanvasElement).dataset.selected === want, String(id));
}

describe("corrections in the web view", () => {
  it("adds, edits, links, deletes (after cancelling once) and purges memories, and the graph follows", async () => {
    const page = await newPage();
    await signInAndOpen(page, suite.url, AGENT);

    // Add: the new memory is shown with its entities and selected; the API holds it.
    const heidi = await addThroughPage(page, HEIDI);
    expect((await node(heidi))?.content).toBe(HEIDI);
    expect(await page.locator('[data-testid="node-title"]').textContent()).toContain(`#${heidi}`);
    expect(await page.locator("#node-list button", { hasText: "Heidi" }).count()).toBeGreaterThanOrEqual(2);
    const chinese = await addThroughPage(page, CHINESE);
    expect(await page.locator('[data-testid="node-content"]').getAttribute("lang")).toBe("zh");
    expect((await node(chinese))?.content).toBe(CHINESE);

    // Edit: the new version is selected; the old one stays, marked superseded (canvas, list, panel).
    await selectNode(page, heidi);
    await page.click('button[data-action="edit"]');
    const editor = page.locator('[data-testid="edit-content"]');
    expect(await editor.inputValue()).toBe(HEIDI);
    await editor.fill(HEIDI_EDITED);
    await screenshot(page, "corrections-edit-1280x800.png");
    await page.click('[data-testid="edit-save"]');
    const edited = await waitForStatus(page, /is superseded by its new version #\d+/);
    const heidi2 = Number(/new version #(\d+)/.exec(edited)?.[1]);
    expect(heidi2).not.toBe(heidi);
    await page.locator('[data-testid="node-content"]', { hasText: HEIDI_EDITED }).waitFor();
    expect((await graphData(page)).selected).toBe(String(heidi2));
    expect(await page.locator('[data-testid="supersedes-note"]').textContent()).toContain("Corrects the earlier version");
    await page.waitForFunction(
      (old) => (document.getElementById("graph") as HTMLCanvasElement).dataset.superseded?.split(" ").includes(old),
      String(heidi),
    );
    expect((await node(heidi))?.superseded_by).toBe(heidi2);
    expect((await node(heidi2))?.content).toBe(HEIDI_EDITED);
    const history = await api<{ history: { node_id: number }[] }>(suite.url, "GET", `/v1/agents/${AGENT}/memories/${heidi2}/history`);
    expect(history.history.map((v) => v.node_id)).toEqual([heidi, heidi2]);
    // The versions, read in the panel.
    await page.click('[data-testid="show-versions"]');
    await page.locator('[data-testid="versions"] li', { hasText: HEIDI }).waitFor();
    expect(await page.locator('[data-testid="versions"] li').count()).toBe(2);
    // The old version: marked in the list and the panel, and no longer editable.
    expect(await page.locator(`#node-list button[data-node-id="${heidi}"] .kind`).textContent()).toBe("superseded");
    await selectNode(page, heidi);
    await page.locator('[data-testid="superseded-note"]').waitFor();
    expect(await page.locator('[data-testid="node-title"]').textContent()).toContain("superseded");
    expect(await page.locator('button[data-action="edit"]').count()).toBe(0);
    await screenshot(page, "corrections-superseded-1280x800.png");

    // Link: from the new version to the Chinese memory, by "Link to…" and the Write tab.
    await selectNode(page, heidi2);
    await page.click('button[data-action="link"]');
    expect(await page.inputValue("#link-source")).toBe(`#${heidi2}`);
    await page.fill("#link-target", `#${chinese}`);
    await page.selectOption("#link-relation", "causes");
    await page.fill("#link-strength", "0.8");
    await page.click("#link-submit");
    // The graph follows: the source is selected, the Node tab shows the new link.
    // The relation stored as 导致 is named in English ("causes"), the page's language.
    await waitForStatus(page, new RegExp(`^Linked #${heidi2} → #${chinese} \\(causes, strength 0\\.8\\)`));
    expect(await page.locator("#link-result").textContent()).toBe(`Linked #${heidi2} → #${chinese}: causes, strength 0.8.`);
    expect(await page.locator("#panel-node").isVisible()).toBe(true);
    const linkRow = page.locator('[data-testid="links-out"] tbody tr', {
      has: page.locator('td[data-relation="导致"]', { hasText: "causes" }),
    });
    await linkRow.waitFor();
    expect(await linkRow.locator(`button[data-node-id="${chinese}"]`).count()).toBe(1);
    const linked = (await node(heidi2))?.links.outgoing.find((l) => l.target === chinese);
    expect(linked).toMatchObject({ relation: "导致", dangling: false });
    // A wrong field is explained in place, nothing sent.
    await page.click("#tab-write");
    await page.fill("#link-source", "");
    await page.click("#link-submit");
    await page.locator("#link-result", { hasText: "Source: a node id" }).waitFor();

    // Delete: cancelling leaves it intact; confirming forgets it, leaving a ghost and a dangling link.
    await selectNode(page, chinese);
    await page.click('button[data-action="delete"]');
    const confirm = page.locator('[data-testid="confirm"]');
    await confirm.waitFor();
    expect(await confirm.textContent()).toContain(`Delete memory #${chinese}?`);
    expect(await page.evaluate(() => document.activeElement?.getAttribute("data-testid"))).toBe("confirm-no");
    await screenshot(page, "corrections-confirm-1280x800.png");
    await page.click('[data-testid="confirm-no"]');
    expect(await confirm.count()).toBe(0);
    expect((await node(chinese))?.content).toBe(CHINESE);
    expect(await page.locator('[data-testid="node-content"]').textContent()).toBe(CHINESE);
    // Escape cancels as well.
    await page.click('button[data-action="delete"]');
    await confirm.waitFor();
    await page.keyboard.press("Escape");
    expect(await confirm.count()).toBe(0);
    expect(await node(chinese)).not.toBeNull();
    const ghostsBefore = Number((await graphData(page)).ghosts);
    await page.click('button[data-action="delete"]');
    await page.click('[data-testid="confirm-yes"]');
    await waitForStatus(page, new RegExp(`^Deleted memory #${chinese}`));
    await page.locator('[data-testid="ghost-note"]').waitFor();
    expect(await page.locator('[data-testid="node-title"]').textContent()).toContain(`forgotten #${chinese}`);
    expect(Number((await graphData(page)).ghosts)).toBeGreaterThan(ghostsBefore);
    expect(await node(chinese)).toBeNull();
    expect((await node(heidi2))?.links.outgoing.find((l) => l.target === chinese)?.dangling).toBe(true);

    // Purge: the memory and its earlier version leave the graph with every trace, and the entities
    // only they named (Stavanger, the lighthouse lamp…: docs/design.md, "Purge").
    await selectNode(page, heidi2);
    const nodesBefore = Number((await graphData(page)).nodes);
    await page.click('button[data-action="purge"]');
    expect(await confirm.textContent()).toContain(`Purge memory #${heidi2}?`);
    await page.click('[data-testid="confirm-yes"]');
    const status = await waitForStatus(page, new RegExp(`^Purged memory #${heidi2}: \\d+ node`));
    expect(Number(/: (\d+) node/.exec(status)?.[1])).toBeGreaterThan(2);
    expect(await page.locator(`#node-list button[data-node-id="${heidi2}"]`).count()).toBe(0);
    expect(await page.locator(`#node-list button[data-node-id="${heidi}"]`).count()).toBe(0);
    const after = await graphData(page);
    expect(Number(after.nodes)).toBeLessThanOrEqual(nodesBefore - 2);
    expect(after.selected).toBe("");
    expect(ids(after.superseded)).not.toContain(heidi);
    expect(await node(heidi2)).toBeNull();
    expect(await node(heidi)).toBeNull();
    await screenshot(page, "corrections-purged-1280x800.png");
  });

  it("fits the Write tab on a phone-width screen", async () => {
    const page = await newPage();
    await page.setViewportSize({ width: 390, height: 844 });
    await signInAndOpen(page, suite.url, AGENT);
    await page.click("#tab-write");
    await page.locator("#add-content").waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    const box = await page.locator("#link-form").boundingBox();
    expect((box?.x ?? 0) + (box?.width ?? 0)).toBeLessThanOrEqual(390);
    await page.locator("#panel-write").scrollIntoViewIfNeeded();
    await screenshot(page, "corrections-write-390x844.png");
  });
});
