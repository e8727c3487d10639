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

/**
 * Indexes into `statements` of the chosen ones, in the order given. `sessions[i]` is the session of
 * statement i: memories said together (one remember submission) share one.
 *
 * Flat arrays throughout: an agent of 10k memories gives ~11k statements and ~70k concept mentions
 * per request, and the profile is read with every context block.
 */
export function chooseStatements(statements: readonly Statement[], sessions: readonly number[], options: SelectionOptions): number[] {
  const n = statements.length;
  const speakerIds = new Map<string, number>();
  const speakerOf = new Int32Array(n);
  const conceptIds = new Map<string, number>();
  // Concept ids of statement i: mentions[starts[i] .. starts[i + 1]).
  const starts = new Int32Array(n + 1);
  const mentions: number[] = [];
  for (let i = 0; i < n; i++) {
    const s = statements[i] as Statement;
    starts[i] = mentions.length;
    let speaker = speakerIds.get(s.speaker);
    if (speaker === undefined) speakerIds.set(s.speaker, (speaker = speakerIds.size));
    speakerOf[i] = speaker;
    let kept = 0;
    for (const c of s.concepts) if (!options.ignore.has(c)) kept++;
    if (kept < (s.aboutSelf ? MIN_CONCEPTS.aboutSelf : MIN_CONCEPTS.other)) continue;
    for (const c of s.concepts) {
      if (options.ignore.has(c)) continue;
      let id = conceptIds.get(c);
      if (id === undefined) conceptIds.set(c, (id = conceptIds.size));
      mentions.push(id);
    }
  }
  starts[n] = mentions.length;
  const concepts = conceptIds.size;
  const weight = conceptWeights(starts, mentions, speakerOf, sessions, concepts, speakerIds.size);
  const key = (i: number, c: number) => (speakerOf[i] ?? 0) * concepts + c;
  // Postings: the statements naming each concept, so a step updates only the gains it changes.
  const postingStarts = new Int32Array(concepts + 1);
  for (const c of mentions) postingStarts[c + 1] = (postingStarts[c + 1] ?? 0) + 1;
  for (let c = 0; c < concepts; c++) postingStarts[c + 1] = (postingStarts[c + 1] ?? 0) + (postingStarts[c] ?? 0);
  const postings = new Int32Array(mentions.length);
  const fill = postingStarts.slice(0, concepts);
  const gain = new Float64Array(n);
  const cost = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    cost[i] = (statements[i]?.length ?? 0) + options.lineOverhead;
    for (let m = starts[i] ?? 0; m < (starts[i + 1] ?? 0); m++) {
      const c = mentions[m] ?? 0;
      gain[i] = (gain[i] ?? 0) + (weight[key(i, c)] ?? 0);
      postings[(fill[c] = (fill[c] ?? 0) + 1) - 1] = i;
    }
  }
  const shown = new Uint8Array(concepts);
  const taken = new Uint8Array(n);
  const chosen: number[] = [];
  let left = options.budget;
  for (;;) {
    let best = -1;
    let bestScore = 0;
    let bestSelf = false;
    for (let i = 0; i < n; i++) {
      const c = cost[i] ?? 0;
      const g = gain[i] ?? 0;
      if (taken[i] || c > left || g <= 1e-12) continue;
      const self = statements[i]?.aboutSelf ?? false;
      const score = g / c;
      if ((self && !bestSelf) || (self === bestSelf && score > bestScore)) [best, bestScore, bestSelf] = [i, score, self];
    }
    if (best < 0) break;
    taken[best] = 1;
    chosen.push(best);
    left -= cost[best] ?? 0;
    for (let m = starts[best] ?? 0; m < (starts[best + 1] ?? 0); m++) {
      const c = mentions[m] ?? 0;
      if (shown[c]) continue;
      shown[c] = 1;
      for (let p = postingStarts[c] ?? 0; p < (postingStarts[c + 1] ?? 0); p++) {
        const j = postings[p] ?? 0;
        gain[j] = (gain[j] ?? 0) - (weight[key(j, c)] ?? 0);
      }
    }
  }
  return chosen.sort((a, b) => a - b);
}

/** log(1 + sessions in which the speaker used the concept), indexed speaker · concepts + concept. */
function conceptWeights(
  starts: Int32Array,
  mentions: readonly number[],
  speakerOf: Int32Array,
  sessions: readonly number[],
  concepts: number,
  speakers: number,
): Float64Array {
  const count = new Float64Array(speakers * concepts);
  // The session each (speaker, concept) was last counted in: a session's statements come together
  // (buildProfile gives them in memory order, and a remember's memories are created together).
  const last = new Int32Array(speakers * concepts).fill(-1);
  for (let i = 0; i + 1 < starts.length; i++) {
    const session = sessions[i] ?? 0;
    for (let m = starts[i] ?? 0; m < (starts[i + 1] ?? 0); m++) {
      const k = (speakerOf[i] ?? 0) * concepts + (mentions[m] ?? 0);
      if (last[k] === session) continue;
      last[k] = session;
      count[k] = (count[k] ?? 0) + 1;
    }
  }
  for (let k = 0; k < count.length; k++) count[k] = Math.log(1 + (count[k] ?? 0));
  return count;
}
