// The profile benchmark's scoring (bench/quality/profile-coverage.ts, profile-bench.ts) on fixtures of
// our own (locomo-sample.ts).
import { describe, expect, it } from "vitest";
import { loadLocomo } from "../../../bench/lib/load";
import { writeLocomoSample } from "./locomo-sample";
import { contentWordSet } from "../../../bench/lib/tokens";
import {
  coverageCounts,
  fillTo,
  isCovered,
  oracleText,
  overBaseline,
  poolCoverage,
  randomText,
  recencyText,
} from "../../../bench/quality/profile-coverage";
import { profileSection, profileTables, scoreConversationProfiles } from "../../../bench/quality/profile-bench";

const conversations = loadLocomo(writeLocomoSample()).conversations;
const [x1, x2] = conversations;
if (!x1 || !x2) throw new Error("fixture");
const words = (t: string) => contentWordSet(t, "en", x1.speakers);
const length = (s: string) => [...s].length;

describe("LoCoMo observation facts", () => {
  it("are read per session and speaker, with their evidence (one id or several)", () => {
    expect(x1.facts.slice(0, 2)).toEqual([
      { session: 1, speaker: "Priya", text: "Priya started a beekeeping course at the community garden.", evidence: ["D1:3"] },
      { session: 1, speaker: "Priya", text: "Priya named her queen bee Marigold.", evidence: ["D1:5"] },
    ]);
    expect(x1.facts.find((f) => f.evidence.length === 2)?.evidence).toEqual(["D2:1", "D2:3"]);
    expect(x1.facts.map((f) => f.session)).toEqual([...x1.facts.map((f) => f.session)].sort((a, b) => a - b));
    expect(x2.facts).toHaveLength(5);
  });
});

describe("profile coverage", () => {
  it("covers a fact when at least half of its content words are in the text, names aside", () => {
    const fact = words("Priya named her queen bee Marigold."); // named, queen, bee, marigold
    expect(fact.size).toBe(4);
    expect(isCovered(fact, words("The queen bee is Marigold."))).toBe(true);
    expect(isCovered(fact, words("Priya, the queen!"))).toBe(false);
    expect(isCovered(new Set(), words("anything"))).toBe(false);
  });

  it("gives baselines exactly the profile's length: whole turns, the last one cut", () => {
    const turns = ["aaaa", "bbbbbb", "cc"];
    expect(fillTo(turns, 8)).toBe("aaaa\nbbb");
    expect(fillTo(turns, 100)).toBe("aaaa\nbbbbbb\ncc");
    expect(recencyText(turns, 9)).toBe("bbbbbb\ncc");
    for (const seed of [1, 2, 3]) expect(length(randomText(turns, 10, seed))).toBe(10);
    const all = x1.sessions.flatMap((s) => s.turns.map((t) => t.content));
    expect(length(recencyText(all, 300))).toBe(300);
  });

  it("the greedy oracle picks the turns that cover facts, within the length", () => {
    const turns = ["Nice weather today.", "I named the queen bee Marigold.", "I started beekeeping at the community garden."];
    const facts = ["Priya named her queen bee Marigold.", "Priya started a beekeeping course at the community garden."].map(words);
    const text = oracleText(turns, facts, words, 80);
    expect(text).toBe("I named the queen bee Marigold.\nI started beekeeping at the community garden.");
    expect(oracleText(turns, facts, words, 35)).toBe("I named the queen bee Marigold.");
  });

  it("counts each method's covered facts and pools them over conversations", () => {
    const turns = x1.sessions.flatMap((s) => s.turns.map((t) => t.content));
    const facts = x1.facts.map((f) => f.text);
    const profile = "## Profile\n- I named the queen bee Marigold.\n- The first honey harvest gave us twelve jars!";
    const counts = coverageCounts(profile, turns, facts, words);
    expect(counts.facts).toBe(facts.length);
    expect(counts.chars).toBe(length(profile));
    expect(counts.covered.profile).toBe(2);
    expect(counts.covered.oracle).toBeGreaterThanOrEqual(counts.covered.recency);
    const pooled = poolCoverage([counts, { ...counts, facts: 2, covered: { profile: 2, recency: 0, random: 0, oracle: 2 } }]);
    expect(pooled.profile).toBeCloseTo(4 / (facts.length + 2));
    expect(overBaseline({ profile: 0.3, recency: 0.1, random: 0.15 })).toBeCloseTo(2);
    expect(overBaseline({ profile: 0.3, recency: 0, random: 0 })).toBeNull();
  });
});

describe("profile benchmark section", () => {
  const texts = {
    whole: "## Profile\n- I named the queen bee Marigold.\n- I moved to Porto for a job at a robotics startup.",
    participants: [
      { name: "Priya", text: "## Profile\nAbout Priya:\n- I named the queen bee Marigold." },
      { name: "Tom", text: "## Profile\nAbout Tom:\n- I want to teach my nephew to sail." },
    ],
  };

  it("scores a participant's profile on the facts about them, against their own turns", () => {
    const scored = scoreConversationProfiles(x1, texts);
    expect(scored?.split).toBe("held back");
    expect(scored?.participants.map((p) => [p.name, p.counts.facts, p.counts.covered.profile])).toEqual([
      ["Priya", 4, 1],
      ["Tom", 5, 1],
    ]);
    expect(scoreConversationProfiles({ ...x1, facts: [] }, texts)).toBeNull();
  });

  it("pools conversations, groups them by split, names those without facts, and renders a table", () => {
    const section = profileSection(
      [x1, { ...x2, facts: [] }],
      new Map([
        [x1.sampleId, texts],
        [x2.sampleId, texts],
      ]),
      null,
    );
    expect(section?.perConversation.map((c) => c.conversation)).toEqual(["conv-x1"]);
    expect(section?.withoutFacts).toEqual(["conv-x2"]);
    expect(section?.groups.map((g) => g.group)).toEqual(["held back"]);
    expect(section?.pooled.facts).toBe(x1.facts.length);
    const table = profileTables(section ?? null)[0];
    expect(table?.rows.map((r) => `${r[0]} ${r[1]}`)).toContain("all: pooled each participant");
  });
});
