import { describe, expect, it } from "vitest";
import { AHEAD_FILL_PAIRS, NOTHING_FORESEEN, VerdictsAhead } from "../../../src/engine/verdicts-ahead";
import { LocalModel } from "../../../src/models/local/local-model";
import type { ConflictPair, ConflictVerdict } from "../../../src/models/types";
import {} from "../../fakes/digesting-ai";

describe("conflict verdicts asked ahead of their turn", () => {
  const pair = (earlier: number, later: number): ConflictPair => ({
    earlier: `Alice lives in city ${earlier}.`,
    later: `Alice moved to city ${later}.`,
    entities: ["Alice"],
  });
  const pairs = (from: number, count: number) => Array.from({ length: count }, (_, i) => pair(from + i, from + i + 1));
  function judgingModel(fail: () => boolean = () => false) {
    const local = new LocalModel();
    const calls: number[] = [];
    const questions: ConflictPair[] = [];
    return {
      calls,
      questions,
      async judgeConflicts(asked: ConflictPair[]): Promise<ConflictVerdict[]> {
        calls.push(asked.length);
        questions.push(...asked);
        if (fail()) throw new Error("unavailable");
        return local.judgeConflicts(asked);
      },
    };
  }

  it("asks a check's pairs and the foreseen ones in one call; the later check finds its verdicts there", async () => {
    const model = judgingModel();
    const ahead = new VerdictsAhead();
    const own = pairs(1, 2);
    const next = pairs(10, 3);
    const first = await ahead.judge(model, own, async () => ({ pairs: [...next, ...pairs(20, 5)], next: next.length }));
    expect(first).toEqual({ verdicts: await new LocalModel().judgeConflicts(own), foreseen: 0 });
    expect(model.calls).toEqual([10]);
    const second = await ahead.judge(model, next, async () => NOTHING_FORESEEN);
    expect(second).toEqual({ verdicts: await new LocalModel().judgeConflicts(next), foreseen: 3 });
    expect(second.verdicts).toContain("update");
    expect(model.calls).toEqual([10]);
  });

  it("uses a verdict asked ahead only for the very question its check asks: the same texts about other entities are asked again", async () => {
    const model = judgingModel();
    const ahead = new VerdictsAhead();
    // Foreseen about two entities; by its turn the link to the second one has broken.
    const foreseen: ConflictPair = { ...pair(1, 2), entities: ["Alice", "Lisbon"] };
    const checked = pair(1, 2);
    await ahead.judge(model, [], async () => ({ pairs: [foreseen], next: 1 }));
    expect(model.questions).toEqual([foreseen]);
    const judged = await ahead.judge(model, [checked], async () => NOTHING_FORESEEN);
    expect(judged).toEqual({ verdicts: await new LocalModel().judgeConflicts([checked]), foreseen: 0 });
    expect(model.questions).toEqual([foreseen, checked]);
    // The question foreseen as it is asked finds its answer.
    expect((await ahead.judge(model, [foreseen], async () => NOTHING_FORESEEN)).foreseen).toBe(1);
    expect(model.calls).toEqual([1, 1]);
  });

  it("asks foreseen pairs in full calls only, unless the next remember's are among them", async () => {
    const model = judgingModel();
    const ahead = new VerdictsAhead();
    const foreseen = pairs(100, 2 * AHEAD_FILL_PAIRS + 50);
    await ahead.judge(model, [], async () => ({ pairs: foreseen, next: 0 }));
    expect(model.calls).toEqual([AHEAD_FILL_PAIRS, AHEAD_FILL_PAIRS]);
    await ahead.judge(model, [], async () => ({ pairs: foreseen, next: foreseen.length }));
    expect(model.calls).toEqual([AHEAD_FILL_PAIRS, AHEAD_FILL_PAIRS, 50]);
    expect((await ahead.judge(model, foreseen.slice(-5), async () => NOTHING_FORESEEN)).foreseen).toBe(5);
    expect(model.calls).toHaveLength(3);
  });
});
