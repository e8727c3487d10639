import { describe, expect, it } from "vitest";
import { RELATION } from "../../../src/vocabulary/relations";
import { breakCycles, cyclesUntilBelow, forecast, halvingCycles, nodeForecast } from "../../src/graph/forecast";
import { intersects, placeLabels, type LabelCandidate } from "../../src/graph/labels";
import { RELATION_NAMES, relationName } from "../../src/graph/relations";
import { dominantLanguage } from "../../src/graph/style";
import { forecastText } from "../../src/ui/forgetting-panel";
import { link, nodeView } from "./fixtures";

const candidate = (id: number, x: number, y: number, extra: Partial<LabelCandidate> = {}): LabelCandidate => ({
  id,
  x,
  y,
  r: 5,
  width: 60,
  height: 15,
  force: false,
  ...extra,
});

describe("label placement", () => {
  it("places labels right of their node when free, else left, above, below; never over another label", () => {
    // Two nodes side by side: the second's right spot is free, the first's right spot would cover the second node.
    const cands = [candidate(1, 100, 100), candidate(2, 140, 100)];
    const nodes = cands.map((c) => ({ id: c.id, x: c.x, y: c.y, r: c.r }));
    const placed = placeLabels(cands, nodes, 400, 300);
    expect(placed).toHaveLength(2);
    const [first, second] = placed;
    // The first label would cover node 2 on the right: it goes left of its node.
    expect(first?.x).toBeLessThan(100);
    expect(second?.x).toBeGreaterThan(140);
    expect(intersects(first!, second!)).toBe(false);
  });

  it("hides the less important label on a collision, and keeps every label inside the canvas", () => {
    // Three nodes on one spot: only as many labels as there are free spots around them.
    const cands = [1, 2, 3, 4, 5, 6].map((id) => candidate(id, 200, 150));
    const placed = placeLabels(cands, [], 400, 300);
    expect(placed.map((p) => p.id)).toEqual([1, 2, 3, 4]);
    for (let i = 0; i < placed.length; i += 1) {
      for (let j = i + 1; j < placed.length; j += 1) expect(intersects(placed[i]!, placed[j]!)).toBe(false);
    }
    // At the right edge the label goes left instead of out of the canvas.
    const [edge] = placeLabels([candidate(9, 390, 150)], [], 400, 300);
    expect(edge!.x + edge!.width).toBeLessThanOrEqual(400);
  });

  it("always shows a forced label (the selection, the hovered node), inside the canvas", () => {
    const crowd = [candidate(1, 200, 150), candidate(2, 200, 150), candidate(3, 200, 150), candidate(4, 200, 150)];
    const placed = placeLabels([...crowd, candidate(5, 200, 150, { force: true })], [], 400, 300);
    expect(placed.map((p) => p.id)).toContain(5);
    // Too wide for any spot: clamped inside.
    const [wide] = placeLabels([candidate(6, 5, 5, { width: 390, force: true })], [], 400, 300);
    expect(wide!.x).toBeGreaterThanOrEqual(0);
    expect(wide!.x + wide!.width).toBeLessThanOrEqual(400);
  });
});

const DEFAULTS = { decay_rate: 0.97, link_initial_strength: 0.5, link_break_threshold: 0.01, delete_threshold: 5 };

describe("forgetting forecast", () => {
  it("counts whole cycles until a strength falls below a threshold", () => {
    expect(cyclesUntilBelow(1, 0.5, 0.5)).toBe(2);
    expect(cyclesUntilBelow(0.4, 0.5, 0.9)).toBe(1);
    expect(cyclesUntilBelow(1, 0.5, 1)).toBeNull();
    expect(cyclesUntilBelow(1, 0, 0.5)).toBeNull();
    // 0.97^22 = 0.511, 0.97^23 = 0.496: a link halves after 23 cycles at the default rate.
    expect(halvingCycles(0.97)).toBe(23);
    expect(halvingCycles(0.5)).toBe(1);
    // 0.5 · 0.97^128 = 0.0101, 0.5 · 0.97^129 = 0.0098 < 0.01.
    expect(breakCycles(DEFAULTS)).toBe(129);
  });

  it("tells when a node is compressed and when deleted: the README's worked example, and decay 0.5", () => {
    // "Carol reviews the budget with Dave." (35 characters): entity links at 1 and 1, two more at 0.5,
    // none pinned. 3 · 0.97^c < 1 first at c = 37; deleted once ⌊35 · importance⌋ < 5, i.e.
    // importance < 1/7: 3 · 0.97^c < 1/7 first at c = 100 (README, "How forgetting works").
    const carol = nodeView(7, [link(7, 1, 1), link(7, 2, 1), link(7, 8, 0.5), link(7, 9, 0.5)], [], {
      content: "Carol reviews the budget with Dave.",
      original_length: 35,
    });
    expect(nodeForecast(carol, DEFAULTS)).toEqual({ shrink: 37, forget: 100 });
    // At 0.5: 3 → 1.5 → 0.75 (compressed at the second cycle), deleted below 1/7: 3 · 0.5^5 = 0.094.
    expect(nodeForecast(carol, { ...DEFAULTS, decay_rate: 0.5 })).toEqual({ shrink: 2, forget: 5 });
    // Already compressed to 20 of 35: the next change once ⌊35 · importance⌋ < 20.
    const shrunk = { ...carol, content: "Carol reviews budget", importance: 0.6 };
    shrunk.links = { outgoing: [link(7, 8, 0.6)], incoming: [], total: { outgoing: 1, incoming: 0 }, next_cursor: null };
    // 0.6 · 0.97^c < 20/35 = 0.571 first at c = 2.
    expect(nodeForecast(shrunk, DEFAULTS).shrink).toBe(2);
    // A pinned link at 1 holds it while its entity stays in the focus; a focus node is never scanned.
    expect(nodeForecast(nodeView(7, [link(7, 1, 1, { pinned: true }), link(7, 8, 0.5)]), DEFAULTS)).toEqual({ shrink: null, forget: null });
    expect(nodeForecast(nodeView(7, [link(7, 8, 0.2)], [], { in_focus: true }), DEFAULTS)).toEqual({ shrink: null, forget: null });
    // A pinned memory is outside forgetting, whatever its links (docs/design.md, "Pins").
    expect(nodeForecast(nodeView(7, [link(7, 8, 0.2)], [], { pinned: true }), DEFAULTS)).toEqual({ shrink: null, forget: null });
    // Pinned 0.5 + decaying 1 at decay 0.5: compressed once the decaying part is below 0.5.
    expect(nodeForecast(nodeView(7, [link(7, 1, 0.5, { pinned: true }), link(7, 8, 1)]), { ...DEFAULTS, decay_rate: 0.5 }).shrink).toBe(2);
  });

  it("suggests the cycles until the first node shown is forgotten, and says it in words", () => {
    const carol = nodeView(7, [link(7, 1, 1), link(7, 2, 1), link(7, 8, 0.5), link(7, 9, 0.5)], [], {
      content: "Carol reviews the budget with Dave.",
      original_length: 35,
    });
    // An entity "Ana" (3 characters, below the delete threshold): deleted as soon as its importance is below 1.
    const ana = nodeView(3, [link(3, 7, 0.6), link(3, 9, 0.6)], [], { kind: "entity", content: "Ana", original_length: 3 });
    const f = forecast(DEFAULTS, [carol, ana]);
    // 1.2 · 0.97^c < 1 first at c = 6.
    expect(f.firstShrink).toEqual({ nodeId: 3, cycles: 6 });
    expect(f.firstForgotten).toEqual({ nodeId: 3, cycles: 6 });
    expect(f.suggested).toBe(6);
    const text = forecastText(DEFAULTS, [carol]);
    expect(text.text).toBe(
      "At decay rate 0.97 a link not held by the focus keeps 97% of its strength per cycle: it is half as strong after 23 cycles, and a new link (0.5) breaks after 129 cycles. Of the nodes shown, #7 is the first to shrink, after 37 cycles, and #7 the first to be forgotten, after 100 cycles.",
    );
    expect(text.suggested).toBe(100);
    const slow = forecastText({ ...DEFAULTS, decay_rate: 0.999 }, []);
    expect(slow.suggested).toBe(100);
    expect(slow.text).toContain("Nothing shown changes");
    expect(forecastText({ ...DEFAULTS, decay_rate: 1 }, [carol]).suggested).toBeNull();
  });
});

describe("relation names", () => {
  it("names every relation of the server's vocabulary in English", () => {
    for (const stored of Object.values(RELATION)) {
      expect(RELATION_NAMES[stored], stored).toBeDefined();
      expect(relationName(stored)).not.toMatch(/\p{Script=Han}/u);
    }
    expect(Object.keys(RELATION_NAMES).sort()).toEqual(Object.values(RELATION).sort());
    expect(relationName("关于")).toBe("about");
    expect(relationName("something-new")).toBe("something-new");
  });

  it("tells an agent's language from its memories", () => {
    expect(dominantLanguage(["Alice moved to Berlin.", "登录模块", "Bob"])).toBe("en");
    expect(dominantLanguage(["登录模块", "决定采用JWT方案", "JWT"])).toBe("zh");
    expect(dominantLanguage([])).toBe("en");
  });
});
