/**
 * Glue between the datasets and the metrics, shared by the BM25 baseline and the API driver: the gold
 * evidence of a question, the scoring options of a dataset, and scoring a whole run.
 *
 * Pure module, runs in workerd.
 */
import type { CategorisedScores } from "./aggregate";
import { answerBearingRecall, bearingTurns } from "./answer-bearing";
import { turnsById, type LocomoConversation, type LocomoQuestion } from "./locomo";
import type { MadialDataset, MadialItem } from "./madial";
import { scoreQuestion, type EvidenceTurn, type RetrievedItem, type ScoringOptions } from "./metrics";
import { contentWordSet } from "./tokens";

/** Text scoring for a LoCoMo conversation: English content words, its two speakers' names removed. */
export function locomoScoringOptions(conv: LocomoConversation): ScoringOptions {
  const names = [...conv.speakers];
  return { words: (text) => contentWordSet(text, "en", names) };
}

/** Text scoring for MADial: Chinese words, the user's tag and "Assistant" removed as speaker names. */
export function madialScoringOptions(ds: MadialDataset): ScoringOptions {
  const names = [...ds.userNames, "Assistant"];
  return { words: (text) => contentWordSet(text, "zh", names) };
}

/** The evidence turns of a question with their remembered content (evidence ids always exist). */
export function locomoEvidence(conv: LocomoConversation, question: LocomoQuestion): EvidenceTurn[] {
  const turns = turnsById(conv);
  return question.evidence.flatMap((id) => {
    const t = turns.get(id);
    return t ? [{ id, text: t.content }] : [];
  });
}

/** MADial's gold: the one memory `relevant-id[0]`, scored by exact id or by its content. */
export function madialEvidence(ds: MadialDataset, item: MadialItem): EvidenceTurn[] {
  const gold = ds.memories.find((m) => m.id === item.goldId);
  return gold ? [{ id: gold.id, text: gold.content }] : [];
}

/** Asks every question of a conversation (all categories; 5 is separated at aggregation) and scores it. */
export function scoreLocomoConversation(
  conv: LocomoConversation,
  retrieved: (question: LocomoQuestion) => readonly RetrievedItem[],
): CategorisedScores[] {
  const options = locomoScoringOptions(conv);
  return conv.questions.map((q) => {
    const items = retrieved(q);
    const evidence = locomoEvidence(conv, q);
    const bearing = bearingTurns(q.answer, evidence, options.words);
    return {
      category: q.category,
      scores: scoreQuestion(items, evidence, options),
      answerBearing: bearing && bearing.length > 0 ? answerBearingRecall(items, bearing, options.words) : null,
    };
  });
}

/** Scores every MADial item; the category is 0 (MADial has none). */
export function scoreMadial(ds: MadialDataset, retrieved: (item: MadialItem) => readonly RetrievedItem[]): CategorisedScores[] {
  const options = madialScoringOptions(ds);
  return ds.items.map((item) => ({
    category: 0,
    scores: scoreQuestion(retrieved(item), madialEvidence(ds, item), options),
  }));
}
