/**
 * The statements a profile chooses from (docs/design.md, "The profile"): a memory's sentences, each
 * with who said it, whether it is about the speaker, and the concepts it names. Pure; derived from
 * the memory alone, so a reader may keep them as long as it keeps the memory.
 *
 * - A question ("What's up with you?", 你呢？) says nothing about its speaker: left out.
 * - A statement is **about its speaker** when its speaker is its subject or owner (I, my, we, 我…)
 *   or it names them, and it stands alone (it does not open on "it", "that", "you"…); an explicit
 *   memory is a statement about its subject by construction. Other statements ("That bowl is
 *   gorgeous!", "Your words motivate me") are reactions: chosen only when nothing about the
 *   speaker is left (profile-selection.ts).
 * - Its **concepts** are its distinct content terms (src/language/tokens/tokenize.ts: stop words out, English
 *   stemmed), the participants' names left out: who speaks is provenance, not content.
 */
import type { MemoryNode } from "../vocabulary/records";
import { contentTerms } from "../language/tokens/tokenize";
import { splitSentences } from "../language/sentences";
import { codePointLength } from "../text/code-points";

export interface Statement {
  memoryId: number;
  speaker: string;
  text: string;
  aboutSelf: boolean;
  concepts: readonly string[];
  /** Code points of `text`. */
  length: number;
}

/** "Name: text" lines, as the segmenter writes a segment joining several speakers' messages. */
const SPEAKER_LINE = /^([^:：\n]{1,40})[:：]\s*/u;
const QUESTION = /[?？]["'”’)）]*$/u;
/** The speaker as subject or owner (I, my, we, our, 我, 咱): "me" and "us" alone are what others do to them. */
const FIRST_PERSON =
  /(?:^|[^\p{L}\p{N}'’])(?:i|i['’](?:m|ve|d|ll)|my|mine|myself|we|we['’](?:re|ve|d|ll)|our|ours|ourselves)(?=$|[^\p{L}\p{N}'’])|[我咱]/iu;
/**
 * A sentence that opens on what was said before (it, that, they, 那, 它…) or on the listener (you,
 * your) does not stand alone as a line about its speaker.
 */
const LEANS_ON =
  /^(?:it|it['’]s|its|that|that['’]s|this|these|those|they|they['’](?:re|ve|ll|d)|he|she|which|so|and|but|you|your|you['’](?:re|ve|ll|d))(?=$|[^\p{L}\p{N}'’])|^[它那这你您]/iu;

/** Who speaks a memory that has no single speaker: its role, as the participant count names it. */
export function speakerOf(memory: Pick<MemoryNode, "speaker" | "role">): string {
  return memory.speaker ?? memory.role ?? "user";
}

/** The memory's text per speaker: the whole text, or the "Name: text" lines of a joint segment. */
export function spokenParts(memory: Pick<MemoryNode, "kind" | "content" | "speaker" | "role">): { speaker: string; text: string }[] {
  if (memory.speaker || memory.kind !== "segment") return [{ speaker: speakerOf(memory), text: memory.content }];
  return memory.content.split("\n").flatMap((line) => {
    const m = SPEAKER_LINE.exec(line);
    const text = m ? line.slice(m[0].length) : line;
    return text.trim() === "" ? [] : [{ speaker: m?.[1]?.trim() ?? speakerOf(memory), text }];
  });
}

const lower = (s: string): string => s.normalize("NFKC").toLowerCase();

/** The sentences of `memory` that can be profile lines. */
export function statementsOf(memory: Pick<MemoryNode, "id" | "kind" | "content" | "speaker" | "role">): Statement[] {
  const out: Statement[] = [];
  for (const part of spokenParts(memory)) {
    const name = lower(part.speaker);
    for (const piece of splitSentences(part.text)) {
      const text = piece.trim();
      if (text === "" || QUESTION.test(text)) continue;
      const aboutSelf = memory.kind === "memory" || ((FIRST_PERSON.test(text) || lower(text).includes(name)) && !LEANS_ON.test(text));
      out.push({
        memoryId: memory.id,
        speaker: part.speaker,
        text,
        aboutSelf,
        concepts: [...new Set(contentTerms(text))],
        length: codePointLength(text),
      });
    }
  }
  return out;
}

/** Content terms of the participants' names, to leave out of concepts. */
export function nameTerms(names: Iterable<string>): Set<string> {
  const out = new Set<string>();
  for (const n of names) for (const t of contentTerms(n)) out.add(t);
  return out;
}
