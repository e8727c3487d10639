import { describe, expect, it } from "vitest";
import { ENTITIES_MAX } from "../../../../src/models/local/local-extractor";
import { LocalModel } from "../../../../src/models/local/local-model";
import { PHRASE_MAX_CODE_POINTS } from "../../../../src/models/types";
import { isCalendarWord } from "../../../../src/language/time/calendar-words";
import { codePointLength } from "../../../../src/text/code-points";
import { EN_STOP_WORDS } from "../../../../src/language/tokens/stopwords-en";
import { ZH_STOP_WORDS } from "../../../../src/language/tokens/stopwords-zh";
import { isAbstractNoun, tagWords, type TaggedWord } from "../../../../src/language/tagging/tagged-words";

const model = new LocalModel();

const WORD: TaggedWord = {
  text: "",
  start: 0,
  end: 0,
  cls: "noun",
  tag: "NOUN",
  lemma: "",
  script: "latin",
  sentence: 0,
  negated: false,
  temporal: false,
  evaluative: false,
};

const EN_LONG =
  "I've been painting a lot lately, mostly landscapes and sunsets. Painting really helps me relax after work. " +
  "Last weekend I went to the lake with my kids and we painted together. " +
  "They loved it so much that we want to go back next month with their friends.";

const ZH_LONG =
  "我最近在学习机器学习和深度学习，打算下个月参加一个数据科学比赛。我们团队有三个人，分别负责数据清洗、模型训练和结果分析。" +
  "比赛的奖金是十万元，如果能拿到名次，我们打算用奖金买一台新的服务器。";

const EN_COMPRESS =
  "Well, you know, it was a long day. The JWT migration of the login module finished yesterday, and the whole team celebrated with pizza.";

const ZH_COMPRESS = "嗯，今天有点累。登录模块的JWT迁移昨天完成了，团队一起吃了披萨庆祝。";

describe("extract", () => {
  it("takes a sentence's capitalised first word for a name only when capitals say something", async () => {
    const texts = [
      "Time flies, it feels like yesterday.",
      "Talk to you soon, Maria.",
      "Spill the beans!",
      "Tons has gone down since then.",
      "Luna and Oliver are so sweet.",
      "Bobby fixed the login page.",
      "Max is my dog. I walk Max every day.",
    ];
    const out = await model.extract(texts);
    // Known words in lower case take their lower-case tag; unknown words, a bare singular subject
    // and a word capitalised again inside the text stay names.
    expect(out.map((e) => e.entities)).toEqual([[], [], [], [], ["Oliver", "Luna"], ["Bobby", "login page"], ["Max"]]);
  });

  it("never takes a template's slot for a name", async () => {
    const out = await model.extract(["Thanks, [Name]! I loved it.", "I talked to [Your Name] about the trip to [City]."]);
    expect(out.map((e) => e.entities)).toEqual([[], ["trip"]]);
  });

  it("never makes a measure, a unit, a word of an idiom or a name's label an entity", async () => {
    const out = await model.extract([
      "I needed a dose of positivity after that week.",
      "We had loads of fun at the lake.",
      "Tons has gone down since then!",
      "Hey Caroline! Anything new? Spill the beans!",
      "I drank a cup of tea with my grandma.",
      "Her name's Coco and she loves the beach.",
      "I bought a new cup for my office.",
    ]);
    expect(out.map((e) => e.entities)).toEqual([
      ["positivity"],
      ["lake"],
      [],
      [],
      ["grandma", "tea"],
      ["Coco", "beach"],
      ["office", "cup"],
    ]);
  });

  it("names English proper nouns, multiword names and acronyms as entities", async () => {
    const [a, b, c] = await model.extract([
      "Yesterday I went to New York with Alice and we visited the Museum of Modern Art.",
      "The adoption agencies I researched were really supportive of UNHCR families.",
      "I love painting landscapes, and painting sunsets is my favorite.",
    ]);
    expect(a?.entities).toEqual(["New York", "Museum of Modern Art", "Alice"]);
    // Noun compounds, whole: "adoption agencies", not "adoption"; a gerund with an object is a verb.
    expect(b?.entities).toEqual(["adoption agencies", "UNHCR families", "UNHCR"]);
    expect(c?.entities).toEqual(["landscapes", "sunsets"]);
    // "Yesterday" is capitalised only because it opens the sentence: a common word, not a name.
    expect(a?.keywords).toEqual(["New York", "Museum of Modern Art", "Alice", "yesterday", "visited"]);
    expect(b?.keywords.slice(0, 3)).toEqual(["adoption agencies", "UNHCR families", "UNHCR"]);
  });

  it("names Chinese compounds and Latin names inside Chinese text as entities", async () => {
    const [a, b, c] = await model.extract([
      "昨天讨论了用户系统的登录模块设计，决定采用JWT方案。",
      "这个项目下周上线，Alice负责前端。",
      "我们的用户系统需要重构，用户系统的数据库设计有问题。",
    ]);
    expect(a?.entities).toEqual(["用户系统", "模块设计", "JWT"]);
    expect(a?.keywords.slice(0, 3)).toEqual(["用户系统", "模块设计", "JWT"]);
    expect(b?.entities.slice(0, 2)).toEqual(["Alice", "项目"]);
    expect(c?.entities).toEqual(["用户系统", "数据库设计"]);
  });

  it("keeps days and months as keywords but never makes them entities, in both languages", async () => {
    const [en, zh] = await model.extract([
      "On Friday in March, Nadia showed the Krakow chess club her opening.",
      "星期五我们在三月的发布会上讨论了预算。",
    ]);
    expect(en?.entities.slice(0, 2)).toEqual(["Krakow", "Nadia"]);
    expect(en?.entities).not.toEqual(expect.arrayContaining(["Friday"]));
    expect(en?.entities).not.toEqual(expect.arrayContaining(["March"]));
    expect(en?.keywords).toEqual(expect.arrayContaining(["Friday", "March"]));
    expect(zh?.entities).not.toEqual(expect.arrayContaining(["星期五"]));
    expect(zh?.entities).not.toEqual(expect.arrayContaining(["三月"]));
    expect(zh?.entities.length).toBeGreaterThan(0);
    expect(isCalendarWord("friday") && isCalendarWord("sept") && isCalendarWord("周日") && isCalendarWord("12月")).toBe(true);
    expect(isCalendarWord("phoenix") || isCalendarWord("周杰伦") || isCalendarWord("月亮")).toBe(false);
  });

  it("never makes an abstract noun an entity (WordNet: feeling, cognition, attribute, state, motive), though it may modify a compound's head", async () => {
    const [a, b] = await model.extract([
      "Your experience and courage at the pottery class really show your pride.",
      "She joined the mentorship program and a physics course.",
    ]);
    expect(a?.entities).toEqual(["pottery class"]);
    // A field of study, a plan or a discipline is a topic, not an abstraction.
    expect(b?.entities).toEqual(expect.arrayContaining(["mentorship program", "physics course"]));
    expect(isAbstractNoun({ ...WORD, lemma: "experience" }) && isAbstractNoun({ ...WORD, lemma: "pride" })).toBe(true);
    expect(isAbstractNoun({ ...WORD, lemma: "pottery" }) || isAbstractNoun({ ...WORD, lemma: "shelter" })).toBe(false);
    expect(isAbstractNoun({ ...WORD, script: "cjk", lemma: "experience" })).toBe(false);
  });

  it("never makes a noun of feeling or value an entity: the sentiment lexicon's nouns, read from the generated table", async () => {
    const [e] = await model.extract(["I found joy and success in my garden."]);
    expect(e?.entities).toEqual(["garden"]);
    const words = tagWords("I found joy and success in my garden.");
    expect(words.filter((w) => w.evaluative).map((w) => w.text)).toEqual(["joy", "success"]);
  });

  it("never makes a predicate, an adjective tagged as a noun or a piece of a hyphenated word an entity", async () => {
    const [exclaimed, predicate, argument, hyphen, coordinated, linking] = await model.extract([
      "Wow, what an amazing journey. Congrats!",
      "It's been a rollercoaster, but the dance studio is open.",
      "We planned the journey to Peru for months.",
      "Art can be a real mood-booster for my students.",
      "I felt liberated and empowered at the pottery class.",
      "The new chandelier makes the store feel cozy.",
    ]);
    expect(exclaimed?.entities).toEqual([]);
    expect(predicate?.entities).toEqual(["dance studio"]);
    // The same noun used as an argument names what the text is about.
    expect(argument?.entities).toEqual(expect.arrayContaining(["Peru", "journey"]));
    expect(hyphen?.entities).not.toContain("booster");
    expect(hyphen?.entities).not.toContain("mood");
    expect(coordinated?.entities).toEqual(["pottery class"]);
    expect(linking?.entities).not.toContain("cozy");
    expect(linking?.entities).toEqual(expect.arrayContaining(["chandelier", "store"]));
  });

  it("reads a surname character jieba tags a preposition as one after a subject, as a surname at a clause's start or after 和", async () => {
    const [to, opening, withWhom] = await model.extract(["他向老师说明了原因。", "向总今天来了吗？", "我和向总开会。"]);
    expect(to?.entities).toContain("老师");
    expect(to?.entities).not.toContain("向老师");
    expect(opening?.entities).toEqual(["向总"]);
    expect(withWhom?.entities).toEqual(["向总"]);
  });

  it("writes a short phrase: a clause that fits, else the most telling stretch of one, never a list of keywords", async () => {
    const out = await model.extract([
      "昨天讨论了用户系统的登录模块设计，决定采用JWT方案。",
      "Yesterday I went to New York with Alice and we visited the Museum of Modern Art.",
      "I love my new puppy!",
      "Hi!",
    ]);
    expect(out.map((e) => e.phrase)).toEqual(["昨天讨论了用户系统的登录模块设计", "New York with Alice", "I love my new puppy", "Hi"]);
  });

  it("never returns stop words, numbers or over-long phrases", async () => {
    const texts = [EN_LONG, ZH_LONG, EN_COMPRESS, ZH_COMPRESS, "I have 2 kids and 3 cats, born in 2019.", "我们今天都很好，谢谢你们！"];
    for (const e of await model.extract(texts)) {
      expect(codePointLength(e.phrase)).toBeLessThanOrEqual(PHRASE_MAX_CODE_POINTS);
      expect(e.keywords.length).toBeLessThanOrEqual(12);
      expect(e.entities.length).toBeLessThanOrEqual(ENTITIES_MAX);
      for (const w of [...e.keywords, ...e.entities]) {
        expect(EN_STOP_WORDS.has(w.toLowerCase()) || ZH_STOP_WORDS.has(w), w).toBe(false);
        expect(/^[\d.,]+$/.test(w), w).toBe(false);
      }
      for (const entity of e.entities) expect(e.keywords).toContain(entity);
    }
  });

  it("returns one extraction per text, empty lists for text without content", async () => {
    expect(await model.extract(["哈哈，好的", "Hi!"])).toEqual([
      { phrase: "哈哈，好的", keywords: [], entities: [] },
      { phrase: "Hi", keywords: [], entities: [] },
    ]);
  });
});
