/**
 * Relation naming (docs/design.md, "remember(messages)" step 5) as a Workers AI task: for each (segment, focus entity) pair,
 * the name of the link from the fixed vocabulary SEGMENT_ENTITY_RELATIONS. The JSON schema lists
 * the allowed names, so constrained decoding cannot invent a new relation; validate.ts checks again.
 */
import { z } from "zod";
import { RELATION, SEGMENT_ENTITY_RELATIONS } from "../../../vocabulary/relations";
import type { RelationRequest } from "../../types";
import { chatMessages, type ChatMessage, type FewShot } from "../ai-client";

export const RELATIONS_SYSTEM_PROMPT = `You name how a conversation segment relates to an entity in a long-term memory. 你判断对话片段与实体的关系。
Input: {"pairs":[{"segment","entity"}]}. Answer: {"relations":[string]}, exactly one relation per pair, in the same order.
Use only these names:
- "${RELATION.about}": the segment mentions the entity itself, by its name, a spelling or case variant, a plural, a translation or an obvious abbreviation.
- "${RELATION.context}": the segment does not mention the entity (it was only a topic of the surrounding conversation).
Answer with the JSON object only.`;

export const relationsAnswerSchema = z.object({ relations: z.array(z.enum(SEGMENT_ENTITY_RELATIONS)) });
export type RelationsAnswer = z.output<typeof relationsAnswerSchema>;

interface RelationsInput {
  pairs: RelationRequest[];
}

const JWT_SEGMENT = "I'm moving the login module to JWT next week because the old session store keeps timing out under load.";
const ZH_SEGMENT = "我们项目下个月要上线用户系统，注册和登录已经做完了，还差权限管理。";

export const RELATIONS_EXAMPLES: readonly FewShot<RelationsInput, RelationsAnswer>[] = [
  {
    input: {
      pairs: [
        { segment: JWT_SEGMENT, entity: "JWT" },
        { segment: JWT_SEGMENT, entity: "Alice" },
        { segment: "Alice: Hi there\nassistant: Hello!", entity: "alice" },
      ],
    },
    output: { relations: [RELATION.about, RELATION.context, RELATION.about] },
  },
  {
    input: {
      pairs: [
        { segment: ZH_SEGMENT, entity: "用户系统" },
        { segment: ZH_SEGMENT, entity: "宣传视频" },
      ],
    },
    output: { relations: [RELATION.about, RELATION.context] },
  },
];

export function buildRelationsMessages(requests: readonly RelationRequest[]): ChatMessage[] {
  return chatMessages(RELATIONS_SYSTEM_PROMPT, RELATIONS_EXAMPLES, {
    pairs: requests.map((r) => ({ segment: r.segment, entity: r.entity })),
  });
}
