// The profile's pure parts (docs/design.md, "The profile"): statements, the selection, the text,
// the entities. Plain Node.
import { describe, expect, it } from "vitest";
import {
  buildProfile,
  countParticipants,
  entityCandidates,
  matchParticipant,
  profileEntities,
  type ProfileInput,
} from "../../../src/memory/profile";
import { chooseStatements, type SelectionOptions } from "../../../src/memory/profile-selection";
import { nameTerms, spokenParts, statementsOf, type Statement } from "../../../src/memory/profile-statements";
import { profileFrameLength, profilePieces, profileText } from "../../../src/memory/profile-text";
import { newNode, type MemoryNode } from "../../../src/vocabulary/records";

const T0 = Date.UTC(2026, 2, 10, 9, 0, 0);

function memory(id: number, content: string, speaker: string | null, session = "s1", kind: MemoryNode["kind"] = "segment"): MemoryNode {
  return newNode({
    id,
    kind,
    name: null,
    content,
    originalLength: [...content].length,
    phrase: "",
    keywords: [],
    speaker,
    role: "user",
    sourceMessageIds: [`m${id}`],
    sourceTaskId: session,
    messageTime: T0,
    createdAt: T0,
  });
}

type SessionStatement = Statement & { session: string };

const statement = (text: string, speaker: string, session: string, aboutSelf = true, memoryId = 1): SessionStatement => {
  const [s] = statementsOf(memory(memoryId, text, speaker, session));
  if (!s) throw new Error(`no statement in "${text}"`);
  return { ...s, aboutSelf, session };
};

describe("profile statements", () => {
  it("splits a memory into sentences, leaves questions out and keeps who said it", () => {
    const got = statementsOf(memory(7, "Hey Mel! What's up with you? I went to a LGBTQ support group yesterday.", "Caroline"));
    expect(got.map((s) => s.text)).toEqual(["Hey Mel!", "I went to a LGBTQ support group yesterday."]);
    expect(got.every((s) => s.memoryId === 7 && s.speaker === "Caroline")).toBe(true);
    expect(statementsOf(memory(8, "你最近怎么样？我在学陶艺。", "小林")).map((s) => s.text)).toEqual(["我在学陶艺。"]);
  });

  it("a statement is about its speaker in the first person or by name, unless it leans on the listener or what came before", () => {
    const about = (text: string, speaker = "Jon") => statementsOf(memory(1, text, speaker))[0]?.aboutSelf;
    expect(about("I'm starting my own dance studio.")).toBe(true);
    expect(about("Our studio opens on Friday.")).toBe(true);
    expect(about("Jon opened the studio.")).toBe(true);
    expect(about("我周末去爬山了。", "小林")).toBe(true);
    expect(about("小林周末去爬山了。", "小林")).toBe(true);
    expect(about("That bowl is gorgeous!")).toBe(false);
    expect(about("Your words really motivate me.")).toBe(false);
    expect(about("It really inspired me.")).toBe(false);
    expect(about("你画得真好。", "小林")).toBe(false);
    // An explicit memory is a statement about its subject by construction.
    expect(statementsOf(memory(2, "Prefers window seats.", null, "s", "memory"))[0]?.aboutSelf).toBe(true);
  });

  it("reads a joint segment's 'Name: text' lines as each speaker's own", () => {
    const joint = { ...memory(3, "Ann: I paint every Sunday.\nBob: I fix old bikes.", null), role: null };
    expect(spokenParts(joint)).toEqual([
      { speaker: "Ann", text: "I paint every Sunday." },
      { speaker: "Bob", text: "I fix old bikes." },
    ]);
    expect(statementsOf(joint).map((s) => [s.speaker, s.text])).toEqual([
      ["Ann", "I paint every Sunday."],
      ["Bob", "I fix old bikes."],
    ]);
    expect(countParticipants([joint])).toEqual([
      { name: "Ann", messages: 1 },
      { name: "Bob", messages: 1 },
    ]);
  });

  it("names participants by their content terms, so that they can be left out of concepts", () => {
    expect([...nameTerms(["Caroline", "Mary Ann"])].sort()).toEqual(["ann", "caroline", "mary"]);
  });
});

/** chooseStatements with each statement's session named by a string. */
function choose(statements: readonly SessionStatement[], options: SelectionOptions): number[] {
  const ids = new Map<string, number>();
  const sessions = statements.map((s) => ids.get(s.session) ?? (ids.set(s.session, ids.size), ids.size - 1));
  return chooseStatements(statements, sessions, options);
}

describe("profile selection", () => {
  const options = { budget: 1000, lineOverhead: 3, ignore: new Set<string>() };

  it("never takes a second line that says only what a chosen one says", () => {
    const s = [
      statement("I adopted a puppy named Luna.", "Ann", "s1"),
      statement("I adopted a puppy named Luna!", "Ann", "s2"),
      statement("I teach pottery classes downtown.", "Ann", "s3"),
    ];
    expect(choose(s, options)).toEqual([0, 2]);
  });

  it("stays within the budget, line overheads included", () => {
    const s = Array.from({ length: 40 }, (_, i) => statement(`I visited museum number ${i + 10} in city ${i + 100}.`, "Ann", `s${i}`));
    const chosen = choose(s, { ...options, budget: 200 });
    const used = chosen.reduce((n, i) => n + (s[i]?.length ?? 0) + 3, 0);
    expect(chosen.length).toBeGreaterThan(3);
    expect(used).toBeLessThanOrEqual(200);
    expect(choose(s, { ...options, budget: 10 })).toEqual([]);
  });

  it("prefers what the speaker comes back to across sessions over a word of one afternoon", () => {
    const s = [
      statement("I bought a lamp and a rug.", "Ann", "s1"),
      statement("My dance studio opens soon.", "Ann", "s2"),
      statement("I practise at the dance studio.", "Ann", "s3"),
      statement("The dance studio needs mirrors for my students.", "Ann", "s4"),
    ];
    // Budget for one line: the studio, named in three sessions, wins over the lamp and the rug.
    const chosen = choose(s, { ...options, budget: 33 });
    expect(chosen.map((i) => s[i]?.text)).toEqual(["My dance studio opens soon."]);
  });

  it("takes statements about the speaker before reactions, and reactions only when they carry enough", () => {
    const s = [
      statement("That painting of the lake at sunrise is gorgeous and calm!", "Ann", "s1", false),
      statement("I restore old sailing boats.", "Ann", "s1"),
      statement("Great work!", "Ann", "s2", false),
    ];
    expect(choose(s, { ...options, budget: 35 })).toEqual([1]);
    expect(choose(s, options)).toEqual([0, 1]);
  });

  it("leaves the participants' names out of what a line adds", () => {
    const s = [statement("Thanks Melanie, I loved it.", "Ann", "s1"), statement("I restore old boats.", "Ann", "s2")];
    expect(choose(s, { ...options, ignore: nameTerms(["Melanie"]) })).toEqual([1]);
  });

  it("is deterministic", () => {
    const s = ["I paint lakes.", "I sail boats.", "I grow roses.", "I bake bread."].map((t, i) => statement(t, "Ann", `s${i}`));
    expect(choose(s, { ...options, budget: 40 })).toEqual(choose([...s], { ...options, budget: 40 }));
  });
});

describe("the profile", () => {
  const memories = [
    memory(1, "I adopted a puppy named Luna. Do you have pets?", "Ann", "s1"),
    memory(2, "Luna is cute! I play FIFA 23 with my brother on weekends.", "Bob", "s1"),
    memory(3, "My pottery class meets on Tuesdays.", "Ann", "s2"),
    memory(4, "I started a programming class in HTML and CSS.", "Bob", "s2"),
    memory(5, "Our road trip to see Josh and Mark starts in May.", "Bob", "s3"),
  ];
  const input = (patch: Partial<ProfileInput> = {}): ProfileInput => ({
    memories,
    statementsOf: statementsOf,
    focus: [{ nodeId: 9, name: "Luna" }],
    participant: null,
    first: [],
    maxChars: 2000,
    locale: "en",
    limits: { participants: 8 },
    ...patch,
  });

  it("for one participant: only their lines, each backed by the memory it comes from", () => {
    const p = buildProfile(input({ participant: "bob" }));
    expect(p.participant).toBe("Bob");
    expect(p.lines.map((l) => [l.text, l.memory_ids])).toEqual([
      ["I play FIFA 23 with my brother on weekends.", [2]],
      ["I started a programming class in HTML and CSS.", [4]],
      ["Our road trip to see Josh and Mark starts in May.", [5]],
    ]);
    expect(p.lines.every((l) => l.participant === "Bob")).toBe(true);
    expect(profileText(p, "en")).toBe(
      [
        "## Profile",
        "About Bob:",
        "- I play FIFA 23 with my brother on weekends.",
        "- I started a programming class in HTML and CSS.",
        "- Our road trip to see Josh and Mark starts in May.",
      ].join("\n"),
    );
  });

  it("for everyone: the participants, then each one's lines under their name; the conversation's participants first", () => {
    const p = buildProfile(input());
    expect(p.participants).toEqual([
      { name: "Bob", messages: 3 },
      { name: "Ann", messages: 2 },
    ]);
    expect(profilePieces(p, "en")[0]).toBe("Participants: Bob (3), Ann (2)");
    expect(p.lines.map((l) => l.participant)).toEqual(["Bob", "Bob", "Bob", "Ann", "Ann"]);
    const first = buildProfile(input({ first: ["ann"] }));
    expect(first.lines.map((l) => l.participant)).toEqual(["Ann", "Ann", "Bob", "Bob", "Bob"]);
    expect(profilePieces(first, "zh")).toContain("关于Ann：\n- I adopted a puppy named Luna.");
    expect(profilePieces(first, "zh")[0]).toBe("参与者：Bob（3）、Ann（2）");
  });

  it("never writes more than max_chars, and an unknown participant gets no lines", () => {
    for (const maxChars of [100, 120, 150, 200, 2000]) {
      const p = buildProfile(input({ maxChars }));
      expect([...profileText(p, "en")].length, String(maxChars)).toBeLessThanOrEqual(maxChars);
    }
    expect(buildProfile(input({ maxChars: 100 })).lines.length).toBeGreaterThan(0);
    const nobody = buildProfile(input({ participant: "Zed" }));
    expect(nobody).toMatchObject({ participant: "Zed", lines: [] });
    expect(matchParticipant(["Ann", "Bob"], "ＢＯＢ")).toBe("Bob");
  });

  it("is a reader: it forgets what the network forgot, superseded memories included", () => {
    const gone = buildProfile(input({ memories: memories.filter((m) => m.id !== 4), participant: "Bob" }));
    expect(gone.lines.some((l) => l.memory_ids.includes(4))).toBe(false);
    const superseded = buildProfile(
      input({ memories: memories.map((m) => (m.id === 5 ? { ...m, supersededBy: 6 } : m)), participant: "Bob" }),
    );
    expect(superseded.lines.some((l) => l.memory_ids.includes(5))).toBe(false);
  });

  it("counts its frame so that the lines fill the rest", () => {
    const frame = profileFrameLength({ participant: null, participants: [{ name: "Bob", messages: 3 }], speakers: ["Bob"] }, "en");
    expect(frame).toBe("## Profile\n".length + "Participants: Bob (3)\n".length + "About Bob:\n".length);
  });

  it("lists the entities its lines' memories are about, those of the most lines first", () => {
    const entity = (id: number, name: string) => ({
      node: { ...memory(id, name, null, "s", "entity"), name: name.toLowerCase() },
      importance: id / 10,
    });
    const lines = [
      { participant: "Bob", text: "a", memory_ids: [2] },
      { participant: "Bob", text: "b", memory_ids: [4] },
    ];
    const about = new Map([
      [2, [20, 21]],
      [4, [21]],
    ]);
    const entities = new Map([
      [20, entity(20, "FIFA 23")],
      [21, entity(21, "brother")],
    ]);
    expect(profileEntities(lines, about, entities)).toEqual([
      { node_id: 21, name: "brother", importance: 2.1, memory_ids: [2, 4] },
      { node_id: 20, name: "FIFA 23", importance: 2, memory_ids: [2] },
    ]);
  });

  it("reads importance only for the entities that can be listed: the most named, ties with the last included", () => {
    const lines = Array.from({ length: 30 }, (_, i) => ({ participant: "Bob", text: `${i}`, memory_ids: [i] }));
    // Entity 100 is named by every line, 101–130 by one line each.
    const about = new Map(lines.map((_, i) => [i, [100, 101 + i]]));
    const ids = entityCandidates(lines, about);
    expect(ids[0]).toBe(100);
    expect(ids).toHaveLength(24);
    expect(entityCandidates(lines.slice(0, 3), about)).toEqual([100, 101, 102, 103]);
  });
});
