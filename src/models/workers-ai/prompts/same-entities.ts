/**
 * Entity identity (docs/design.md, "Memory operations", entity resolution) as a Workers AI task: whether a name just
 * mentioned names an entity the agent already holds ("JavaScript" and "JS", "Bobby" and "Robert"
 * in the same family). One boolean per pair, the count checked; a wrong answer falls back to the
 * local rule (initialisms only).
 */
import { z } from "zod";
import type { EntityPair } from "../../types";
import { chatMessages, type ChatMessage, type FewShot } from "../ai-client";
import { WorkersAiError } from "../workers-ai-error";

/** Pairs per call: the answer is one boolean each. */
export const SAME_ENTITIES_BATCH_SIZE = 16;

export const SAME_ENTITIES_SYSTEM_PROMPT = `You keep the entities of a long-term memory apart or together. 你判断两个名称是否指同一个事物。
Input: {"pairs":[{"known","mentioned","context"}]}: "known" is an entity the memory already holds; "mentioned" is a name in a new text ("context"). Answer: {"same":[boolean]}, exactly one per pair, in the same order.
true only when "mentioned" is another name of the very same person, place, organisation or thing: an abbreviation or acronym (JS / JavaScript, NYC / New York City), a nickname (Bobby / Robert, when the context allows it), another spelling or a translation (Munich / München, 北京 / Beijing). false when they are only related (Java / JavaScript, a city and its country, a company and its product), when one is a part or a kind of the other, or when you are not sure. Answer with the JSON object only.`;

export const sameEntitiesAnswerSchema = z.object({ same: z.array(z.boolean()) });
export type SameEntitiesAnswer = z.output<typeof sameEntitiesAnswerSchema>;

interface SameEntitiesInput {
  pairs: EntityPair[];
}

export const SAME_ENTITIES_EXAMPLES: readonly FewShot<SameEntitiesInput, SameEntitiesAnswer>[] = [
  {
    input: {
      pairs: [
        { known: "JS", mentioned: "JavaScript", context: "JavaScript bundles are too large." },
        { known: "Java", mentioned: "JavaScript", context: "JavaScript bundles are too large." },
        { known: "北京", mentioned: "Beijing", context: "We flew to Beijing on Monday." },
        { known: "France", mentioned: "Paris", context: "Alice lives in Paris." },
      ],
    },
    output: { same: [true, false, true, false] },
  },
];

export function buildSameEntitiesMessages(pairs: readonly EntityPair[]): ChatMessage[] {
  return chatMessages(SAME_ENTITIES_SYSTEM_PROMPT, SAME_ENTITIES_EXAMPLES, {
    pairs: pairs.map((p) => ({ known: p.known, mentioned: p.mentioned, context: p.context })),
  });
}

export function validateSameEntities(same: readonly boolean[], expected: number): boolean[] {
  if (same.length !== expected) throw new WorkersAiError("invalid_answer", `expected ${expected} answers, got ${same.length}`);
  return [...same];
}
