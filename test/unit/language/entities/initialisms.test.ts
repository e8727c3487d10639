import { describe, expect, it } from "vitest";
import { initialismsOf } from "../../../../src/language/entities/initialisms";
import { LocalModel } from "../../../../src/models/local/local-model";

describe("entity names judged by the model", () => {
  it("the local rule: a capitalised short name is the initialism of a longer one, nothing else", async () => {
    expect(initialismsOf("JavaScript")).toEqual(["JS"]);
    expect(initialismsOf("New York City")).toEqual(["NYC"]);
    expect(initialismsOf("Bank of America")).toEqual(["BOA", "BA"]);
    expect(initialismsOf("Paris")).toEqual([]);
    const judged = await new LocalModel().sameEntities([
      { known: "JS", mentioned: "JavaScript", context: "" },
      { known: "New York City", mentioned: "NYC", context: "" },
      { known: "Java", mentioned: "JavaScript", context: "" },
      { known: "js", mentioned: "JavaScript", context: "" },
      { known: "Bobby", mentioned: "Robert", context: "" },
      { known: "TS", mentioned: "JavaScript", context: "" },
    ]);
    expect(judged).toEqual([true, true, false, false, false, false]);
  });
});
