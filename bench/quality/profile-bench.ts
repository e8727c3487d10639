/**
 * The profile benchmark (issue 39; docs/BENCHMARKS.md, "Profile"): after each LoCoMo conversation is
 * remembered under `default`, the agent's profile (GET /profile, the API's default length) and each
 * participant's (GET /profile?participant=…) are scored by profile-coverage.ts against the
 * annotators' `observation` facts: the whole profile against every fact of the conversation, a
 * participant's against the facts about them, each beside recency, random and the greedy oracle at
 * the profile's length. Pooled: facts covered ÷ facts, summed over conversations (participants
 * over every participant). Conversations are grouped as the question split does (split.ts).
 *
 * MADial has no annotated facts about its user: its user's profile is asked and described (length,
 * lines, the share of its letters that are Chinese), not scored.
 */
import type { AgentApi } from "../driver/agent-api";
import type { LocomoConversation } from "../lib/locomo";
import { contentWordSet } from "../lib/tokens";
import { fmt, type Table } from "../lib/table";
import { coverageCounts, overBaseline, poolCoverage, type CoverageCounts, type CoverageShares } from "./profile-coverage";
import { TUNING_CONVERSATIONS, type SplitGroup } from "./split";

/** What the API answered for one conversation's agent. */
export interface ProfileTexts {
  whole: string;
  participants: { name: string; text: string }[];
}

export async function askLocomoProfiles(agent: AgentApi, conv: LocomoConversation): Promise<ProfileTexts> {
  const whole = (await agent.profile()).value.text;
  const participants: ProfileTexts["participants"] = [];
  for (const name of conv.speakers) participants.push({ name, text: (await agent.profile({ participant: name })).value.text });
  return { whole, participants };
}

export interface MadialProfile {
  participant: string;
  chars: number;
  lines: number;
  /** Share of the lines' letters that are Han characters: the profile speaks the data's language. */
  hanShare: number;
  /** The first lines, as an example. */
  example: string[];
}

export async function askMadialProfile(agent: AgentApi, user: string): Promise<MadialProfile> {
  const profile = (await agent.profile({ participant: user, locale: "zh" })).value;
  const letters = [...profile.lines.map((l) => l.text).join("")].filter((c) => /\p{L}/u.test(c));
  const han = letters.filter((c) => /\p{Script=Han}/u.test(c)).length;
  return {
    participant: user,
    chars: [...profile.text].length,
    lines: profile.lines.length,
    hanShare: letters.length === 0 ? 0 : han / letters.length,
    example: profile.lines.slice(0, 3).map((l) => l.text),
  };
}

export type ProfileCell = CoverageShares & { ratio: number | null };

export interface ProfileConversation {
  conversation: string;
  split: SplitGroup;
  facts: number;
  pooled: ProfileCell;
  participants: (ProfileCell & { name: string })[];
}

export interface ProfileGroup {
  group: SplitGroup;
  conversations: string[];
  pooled: ProfileCell;
  participants: ProfileCell;
}

export interface ProfileSection {
  rule: string;
  perConversation: ProfileConversation[];
  /** Every conversation: the whole profile against every fact. */
  pooled: ProfileCell;
  /** Every conversation: each participant's profile against the facts about them. */
  participants: ProfileCell;
  groups: ProfileGroup[];
  /** Conversations of the file without annotated facts (not scored). */
  withoutFacts: string[];
  madial: (MadialProfile & { facts: null; note: string }) | null;
}

export const PROFILE_RULE =
  "a fact is covered when at least half of its content words (lib/tokens.ts: the README's rule, the two speakers' names removed) are among the profile's; " +
  "baselines at the profile's length in code points: recency (latest turns), random (mean of 5 seeds), greedy oracle (whole turns covering the most new facts per character); " +
  "a participant's baselines from their own turns";

const cell = (counts: readonly CoverageCounts[]): ProfileCell => {
  const shares = poolCoverage(counts);
  return { ...shares, ratio: overBaseline(shares) };
};

interface Scored {
  conversation: string;
  split: SplitGroup;
  pooled: CoverageCounts;
  participants: { name: string; counts: CoverageCounts }[];
}

/** One conversation's profiles scored, or null when the file has no facts for it. */
export function scoreConversationProfiles(conv: LocomoConversation, texts: ProfileTexts): Scored | null {
  if (conv.facts.length === 0) return null;
  const words = (t: string) => contentWordSet(t, "en", conv.speakers);
  const turns = conv.sessions.flatMap((s) => s.turns);
  return {
    conversation: conv.sampleId,
    split: TUNING_CONVERSATIONS.includes(conv.sampleId) ? "tuning" : "held back",
    pooled: coverageCounts(
      texts.whole,
      turns.map((t) => t.content),
      conv.facts.map((f) => f.text),
      words,
    ),
    participants: texts.participants.map(({ name, text }) => ({
      name,
      counts: coverageCounts(
        text,
        turns.filter((t) => t.speaker === name).map((t) => t.content),
        conv.facts.filter((f) => f.speaker === name).map((f) => f.text),
        words,
      ),
    })),
  };
}

export function profileSection(
  conversations: readonly LocomoConversation[],
  texts: ReadonlyMap<string, ProfileTexts>,
  madial: MadialProfile | null,
): ProfileSection | null {
  const scored: Scored[] = [];
  const withoutFacts: string[] = [];
  for (const conv of conversations) {
    const t = texts.get(conv.sampleId);
    if (!t) continue;
    const s = scoreConversationProfiles(conv, t);
    if (s) scored.push(s);
    else withoutFacts.push(conv.sampleId);
  }
  if (scored.length === 0 && !madial) return null;
  const groups: SplitGroup[] = ["tuning", "held back"];
  return {
    rule: PROFILE_RULE,
    perConversation: scored.map((s) => ({
      conversation: s.conversation,
      split: s.split,
      facts: s.pooled.facts,
      pooled: cell([s.pooled]),
      participants: s.participants.map((p) => ({ name: p.name, ...cell([p.counts]) })),
    })),
    pooled: cell(scored.map((s) => s.pooled)),
    participants: cell(scored.flatMap((s) => s.participants.map((p) => p.counts))),
    groups: groups.flatMap((group) => {
      const own = scored.filter((s) => s.split === group);
      return own.length === 0
        ? []
        : [
            {
              group,
              conversations: own.map((s) => s.conversation),
              pooled: cell(own.map((s) => s.pooled)),
              participants: cell(own.flatMap((s) => s.participants.map((p) => p.counts))),
            },
          ];
    }),
    withoutFacts,
    madial: madial ? { ...madial, facts: null, note: "MADial has no annotated facts about its user: described, not scored" } : null,
  };
}

const pct = (x: number | null | undefined): string => (x === null || x === undefined ? "–" : fmt(100 * x, 1));

function row(label: string, scope: string, c: ProfileCell): string[] {
  return [label, scope, String(c.facts), fmt(c.chars, 0), pct(c.profile), pct(c.recency), pct(c.random), pct(c.oracle), fmt(c.ratio, 2)];
}

export function profileTables(section: ProfileSection | null): Table[] {
  if (!section) return [];
  const tables: Table[] = [];
  if (section.perConversation.length > 0) {
    tables.push({
      title: `Profile: share of the annotators' facts (LoCoMo observation) the profile covers, % (${section.rule})`,
      headers: ["conversation", "profile of", "facts", "chars", "profile", "recency", "random", "oracle", "× better baseline"],
      align: ["left", "left"],
      rows: [
        ...section.perConversation.flatMap((c) => [
          row(`${c.conversation} (${c.split})`, "everyone", c.pooled),
          ...c.participants.map((p) => row(`${c.conversation} (${c.split})`, p.name, p)),
        ]),
        ...section.groups.flatMap((g) => [
          row(`${g.group}: pooled`, "everyone", g.pooled),
          row(`${g.group}: pooled`, "each participant", g.participants),
        ]),
        row("all: pooled", "everyone", section.pooled),
        row("all: pooled", "each participant", section.participants),
      ],
    });
  }
  if (section.madial) {
    const m = section.madial;
    tables.push({
      title: "Profile on MADial (Chinese): no annotated facts, so described, not scored",
      headers: ["participant", "chars", "lines", "Han share of letters", "first lines"],
      align: ["left", "right", "right", "right", "left"],
      rows: [[m.participant, String(m.chars), String(m.lines), fmt(m.hanShare, 2), m.example.join(" / ")]],
    });
  }
  return tables;
}
