/**
 * Conflict judgement (docs/design.md, "Memory operations", conflicts on write) as a Workers AI task: for each pair of
 * memories about a shared entity, one verdict from CONFLICT_VERDICTS. The JSON schema lists the
 * allowed verdicts (constrained decoding cannot invent one); the count is checked by
 * validateConflictVerdicts below, and a wrong answer falls back to the local rules.
 */
import { z } from "zod";
import { CONFLICT_VERDICTS, type ConflictPair, type ConflictVerdict } from "../../types";
import { chatMessages, type ChatMessage, type FewShot } from "../ai-client";
import { WorkersAiError } from "../workers-ai-error";

/**
 * Most pairs per call: a verdict is a word, so the answer is short; the inputs are two memories
 * each, and the planner also keeps a batch within the context window (conflictBatches). A remember
 * on a busy subject opens dozens of pairs, and the pairs of queued remembers are asked together
 * (src/engine/verdicts-ahead.ts): 128 keeps a call to the pairs of two or three remembers.
 */
export const CONFLICT_BATCH_SIZE = 128;

export const CONFLICTS_SYSTEM_PROMPT = `You check a long-term memory for conflicts. 你判断两条记忆之间的关系。
Input: {"pairs":[{"earlier","later","entities"}]}: two memories about the same entities; "earlier" was remembered first. Answer: {"verdicts":[string]}, exactly one verdict per pair, in the same order.
Verdicts:
- "unrelated": both can be true; they say different things (another fact about the same person or thing).
- "same": the later says the same fact again, perhaps in other words.
- "update": the same subject and attribute with a newer value: the later replaces the earlier because something changed over time (moved to another city, a new job, no longer likes it, now single). A change over time is never a contradiction. 时间变化不是矛盾。
- "contradiction": both cannot be true at once and nothing says it changed over time (likes tea / hates tea; is married / is not married).
A memory about the past ("used to", 以前) does not replace or contradict the present. Answer with the JSON object only.`;

export const conflictsAnswerSchema = z.object({ verdicts: z.array(z.enum(CONFLICT_VERDICTS)) });
export type ConflictsAnswer = z.output<typeof conflictsAnswerSchema>;

interface ConflictsInput {
  pairs: ConflictPair[];
}

export const CONFLICTS_EXAMPLES: readonly FewShot<ConflictsInput, ConflictsAnswer>[] = [
  {
    input: {
      pairs: [
        { earlier: "Alice lives in Paris.", later: "Alice moved to Berlin last month.", entities: ["Alice"] },
        { earlier: "Alice likes green tea.", later: "Alice hates green tea.", entities: ["Alice", "green tea"] },
        { earlier: "Alice likes green tea.", later: "Alice works at a bakery.", entities: ["Alice"] },
        { earlier: "Bob: I'm vegetarian.", later: "Bob: I don't eat meat.", entities: ["Bob"] },
      ],
    },
    output: { verdicts: ["update", "contradiction", "unrelated", "same"] },
  },
  {
    input: {
      pairs: [
        { earlier: "主人十天前很紧张。", later: "主人现在很放松。", entities: ["主人"] },
        { earlier: "小明喜欢打篮球。", later: "小明不喜欢打篮球。", entities: ["小明", "篮球"] },
        { earlier: "小明在谷歌工作。", later: "小明以前在微软实习过。", entities: ["小明"] },
      ],
    },
    output: { verdicts: ["update", "contradiction", "unrelated"] },
  },
];

export function buildConflictsMessages(pairs: readonly ConflictPair[]): ChatMessage[] {
  return chatMessages(CONFLICTS_SYSTEM_PROMPT, CONFLICTS_EXAMPLES, {
    pairs: pairs.map((p) => ({ earlier: p.earlier, later: p.later, entities: [...p.entities] })),
  });
}

/** One verdict per pair (each already one of CONFLICT_VERDICTS by the schema). */
export function validateConflictVerdicts(verdicts: readonly ConflictVerdict[], expected: number): ConflictVerdict[] {
  if (verdicts.length !== expected) throw new WorkersAiError("invalid_answer", `expected ${expected} verdicts, got ${verdicts.length}`);
  return [...verdicts];
}
