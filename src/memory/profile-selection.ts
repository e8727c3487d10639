/**
 * Which statements a profile shows (docs/design.md, "The profile"): the set that together says the
 * most about the participants within a length, not the top of a ranking. Pure.
 *
 * Budgeted maximum coverage, solved greedily (the concept-coverage view of extractive
 * summarisation: Gillick & Favre 2009; Lin & Bilmes 2011):
 * - the value of a set of statements is the summed weight of the distinct concepts they name, so a
 *   second line saying what one already shows adds nothing ("no two lines saying the same");
 * - a concept's weight for a speaker is log(1 + the number of sessions in which they used it):
 *   what someone comes back to across conversations says more about them than a word of one
 *   afternoon, with diminishing returns, so one topic does not crowd out the others;
 * - each step takes the statement with the most new weight per code point it costs (line
 *   overhead included) that still fits; statements about the speaker first, other statements
 *   only once none of those adds anything; a statement naming too few concepts never.
 * Deterministic: ties go to the earlier statement.
 */
import type { Statement } from "./profile-statements";

export interface ProfileStatement extends Statement {
  /** Memories said together (one remember submission) share a session. */
  session: string;
}

export interface SelectionOptions {
  /** Code points the chosen statements may take, line overheads included. */
  budget: number;
  /** Code points each line costs besides its text ("- " and the line break). */
  lineOverhead: number;
  /** Concepts that never count (the participants' names). */
  ignore: ReadonlySet<string>;
}

/**
 * Concepts a statement needs to be a line at all: one word says too little to stand alone ("Congrats!",
 * "I'm so grateful."), and a reaction must carry more than a statement about the speaker to earn a place.
 */
const MIN_CONCEPTS = { aboutSelf: 2, other: 3 } as const;

/** Indexes into `statements` of the chosen ones, in the order given. */
export function chooseStatements(statements: readonly ProfileStatement[], options: SelectionOptions): number[] {
  const conceptIds = new Map<string, number>();
  const conceptsOf = statements.map((s) => {
    const cs = s.concepts.filter((c) => !options.ignore.has(c));
    if (cs.length < (s.aboutSelf ? MIN_CONCEPTS.aboutSelf : MIN_CONCEPTS.other)) return [];
    return cs.map((c) => {
      let id = conceptIds.get(c);
      if (id === undefined) conceptIds.set(c, (id = conceptIds.size));
      return id;
    });
  });
  const speakers = new Map<string, number>();
  const speakerOf = statements.map((s) => {
    let id = speakers.get(s.speaker);
    if (id === undefined) speakers.set(s.speaker, (id = speakers.size));
    return id;
  });
  const weight = conceptWeights(statements, conceptsOf, speakerOf, conceptIds.size);
  // Postings: the statements naming each concept, so a step updates only the gains it changes.
  const postings: number[][] = Array.from({ length: conceptIds.size }, () => []);
  conceptsOf.forEach((cs, i) => {
    for (const c of cs) postings[c]?.push(i);
  });
  const gain = conceptsOf.map((cs, i) => cs.reduce((g, c) => g + (weight.get(key(speakerOf[i] ?? 0, c, conceptIds.size)) ?? 0), 0));
  const cost = statements.map((s) => s.length + options.lineOverhead);
  const shown = new Uint8Array(conceptIds.size);
  const taken = new Uint8Array(statements.length);
  const chosen: number[] = [];
  let left = options.budget;
  for (;;) {
    let best = -1;
    let bestScore = 0;
    let bestSelf = false;
    for (let i = 0; i < statements.length; i++) {
      const c = cost[i] ?? 0;
      if (taken[i] || c > left || (gain[i] ?? 0) <= 1e-12) continue;
      const self = statements[i]?.aboutSelf ?? false;
      const score = (gain[i] ?? 0) / c;
      if ((self && !bestSelf) || (self === bestSelf && score > bestScore)) [best, bestScore, bestSelf] = [i, score, self];
    }
    if (best < 0) break;
    taken[best] = 1;
    chosen.push(best);
    left -= cost[best] ?? 0;
    for (const c of conceptsOf[best] ?? []) {
      if (shown[c]) continue;
      shown[c] = 1;
      for (const j of postings[c] ?? []) gain[j] = (gain[j] ?? 0) - (weight.get(key(speakerOf[j] ?? 0, c, conceptIds.size)) ?? 0);
    }
  }
  return chosen.sort((a, b) => a - b);
}

const key = (speaker: number, concept: number, concepts: number): number => speaker * concepts + concept;

/** log(1 + sessions in which the speaker used the concept), per (speaker, concept). */
function conceptWeights(
  statements: readonly ProfileStatement[],
  conceptsOf: readonly number[][],
  speakerOf: readonly number[],
  concepts: number,
): Map<number, number> {
  const sessions = new Map<number, Set<string>>();
  conceptsOf.forEach((cs, i) => {
    const session = statements[i]?.session ?? "";
    for (const c of cs) {
      const k = key(speakerOf[i] ?? 0, c, concepts);
      const set = sessions.get(k) ?? new Set<string>();
      set.add(session);
      sessions.set(k, set);
    }
  });
  return new Map([...sessions].map(([k, s]) => [k, Math.log(1 + s.size)]));
}
