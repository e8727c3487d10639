/**
 * The profile as text (docs/design.md, "The profile"): its heading, the participants, then each
 * participant's lines under their name. The context block takes the same pieces within its token
 * budget; GET /profile gives them whole. Labels follow the locale; stored text is one line each
 * (format.ts). Pure.
 */
import type { Locale } from "../vocabulary/locales";
import { oneLine } from "./format";
import type { Profile } from "./profile-types";

export const PROFILE_HEADER: Readonly<Record<Locale, string>> = { zh: "## 用户概况", en: "## Profile" };

const LABELS = {
  zh: { participants: "参与者：", separator: "、", count: (n: number) => `（${n}）`, about: (name: string) => `关于${name}：` },
  en: { participants: "Participants: ", separator: ", ", count: (n: number) => ` (${n})`, about: (name: string) => `About ${name}:` },
} as const;

/** What a line costs besides its text: "- " before it and the line break after it. */
export const PROFILE_LINE_OVERHEAD = 3;

const length = (s: string): number => [...s].length;

function participantsLine(participants: Profile["participants"], locale: Locale): string {
  const l = LABELS[locale];
  return l.participants + participants.map((p) => `${oneLine(p.name)}${l.count(p.messages)}`).join(l.separator);
}

/** A participant's name above their lines, after a label of ours: a stored name never opens a line. */
const heading = (name: string, locale: Locale): string => LABELS[locale].about(oneLine(name));

/**
 * The profile's pieces in order, each one or more lines: the participants (for the whole agent),
 * then each line, the first of a participant's lines with their name above it.
 */
export function profilePieces(profile: Profile, locale: Locale): string[] {
  const out: string[] = [];
  if (profile.participant === null && profile.participants.length > 0) out.push(participantsLine(profile.participants, locale));
  let current: string | null = null;
  for (const line of profile.lines) {
    const text = `- ${oneLine(line.text)}`;
    out.push(line.participant === current ? text : `${heading(line.participant, locale)}\n${text}`);
    current = line.participant;
  }
  return out;
}

/** The whole profile as text: the heading and every piece. */
export function profileText(profile: Profile, locale: Locale): string {
  return [PROFILE_HEADER[locale], ...profilePieces(profile, locale)].join("\n");
}

/**
 * Code points of everything but the lines, for a profile of `speakers`' lines: the heading, the
 * participants' line and a name above each speaker's lines (each followed by a line break).
 */
export function profileFrameLength(
  frame: { participant: string | null; participants: Profile["participants"]; speakers: readonly string[] },
  locale: Locale,
): number {
  const participants =
    frame.participant === null && frame.participants.length > 0 ? length(participantsLine(frame.participants, locale)) + 1 : 0;
  return length(PROFILE_HEADER[locale]) + 1 + participants + frame.speakers.reduce((n, s) => n + length(heading(s, locale)) + 1, 0);
}
