import { describe, expect, it } from "vitest";
import { RELATION } from "../../../src/vocabulary/relations";
import { SEGMENT_MAX_LATIN } from "../../../src/models/local/local-segmenter";
import { BinaryHeap } from "../../../src/models/local/binary-heap";
import { LruMap } from "../../../src/models/local/lru-map";
import { ENTITIES_MAX } from "../../../src/models/local/local-extractor";
import { LocalEmbedder, LocalModel } from "../../../src/models/local/local-model";
import { PHRASE_MAX_CODE_POINTS, type ModelMessage, type SegmentDraft } from "../../../src/models/types";
import { isCalendarWord } from "../../../src/text/calendar-words";
import { codePointLength } from "../../../src/text/code-points";
import { EN_STOP_WORDS } from "../../../src/text/stopwords-en";
import { ZH_STOP_WORDS } from "../../../src/text/stopwords-zh";
import { isAbstractNoun, tagWords, type TaggedWord } from "../../../src/text/tagged-words";

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
const user = (index: number, content: string, name?: string): ModelMessage =>
  name === undefined ? { index, role: "user", content } : { index, role: "user", content, name };

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

describe("segment", () => {
  it("cuts a long English message at sentence boundaries into balanced segments", async () => {
    const segments = await model.segment([user(0, EN_LONG)]);
    expect(segments).toEqual([
      {
        text: "I've been painting a lot lately, mostly landscapes and sunsets. Painting really helps me relax after work.",
        messageIndexes: [0],
      },
      {
        text: "Last weekend I went to the lake with my kids and we painted together. They loved it so much that we want to go back next month with their friends.",
        messageIndexes: [0],
      },
    ]);
  });

  it("cuts a long Chinese message at sentence boundaries into balanced segments", async () => {
    const segments = await model.segment([user(3, ZH_LONG)]);
    expect(segments.map((s) => s.text)).toEqual([
      "我最近在学习机器学习和深度学习，打算下个月参加一个数据科学比赛。我们团队有三个人，分别负责数据清洗、模型训练和结果分析。",
      "比赛的奖金是十万元，如果能拿到名次，我们打算用奖金买一台新的服务器。",
    ]);
    expect(segments.every((s) => s.messageIndexes.join() === "3")).toBe(true);
  });

  it("cuts a single over-long sentence at clause boundaries", async () => {
    const sentence =
      "When we finally arrived at the campsite near the lake after driving for almost six hours through the mountains, " +
      "the kids immediately ran to the water, my husband started to set up the tent, and I sat down to paint the sunset over the hills";
    expect((await model.segment([user(0, sentence)])).map((s) => s.text)).toEqual([
      "When we finally arrived at the campsite near the lake after driving for almost six hours through the mountains,",
      "the kids immediately ran to the water, my husband started to set up the tent, and I sat down to paint the sunset over the hills",
    ]);
    const zh =
      "这次版本我们重新设计了用户系统的登录模块，包括短信验证码登录、微信扫码登录、第三方账号绑定、异地登录提醒以及多设备同时在线时的会话管理和强制下线功能，" +
      "另外还优化了注册流程和找回密码流程，让新用户可以在一分钟之内完成注册";
    const pieces = (await model.segment([user(0, zh)])).map((s) => s.text);
    expect(pieces).toEqual([
      "这次版本我们重新设计了用户系统的登录模块，包括短信验证码登录、微信扫码登录、第三方账号绑定、异地登录提醒以及多设备同时在线时的会话管理和强制下线功能，",
      "另外还优化了注册流程和找回密码流程，让新用户可以在一分钟之内完成注册",
    ]);
  });

  it("merges runs of short messages into one segment, never across a system message", async () => {
    const segments = await model.segment([
      user(0, "Hi!", "Isabella"),
      { index: 1, role: "assistant", content: "Hello, how are you?", name: "Rosalie" },
      user(2, "   "),
      user(3, "Good, thanks!", "Isabella"),
      { index: 4, role: "system", content: "Be brief." },
      user(5, "你好！"),
      { index: 6, role: "assistant", content: "你好，有什么可以帮你？" },
      user(7, "I want to talk about the adoption agencies I researched last week for our family."),
      user(8, "Thanks!"),
    ]);
    expect(segments).toEqual([
      { text: "Isabella: Hi!\nRosalie: Hello, how are you?\nIsabella: Good, thanks!", messageIndexes: [0, 1, 3] },
      { text: "Be brief.", messageIndexes: [4] },
      { text: "user: 你好！\nassistant: 你好，有什么可以帮你？", messageIndexes: [5, 6] },
      { text: "I want to talk about the adoption agencies I researched last week for our family.", messageIndexes: [7] },
      { text: "Thanks!", messageIndexes: [8] },
    ]);
  });

  it("produces nothing for whitespace-only messages", async () => {
    expect(await model.segment([user(0, "  \n\t "), user(1, "")])).toEqual([]);
  });

  it("never drops text, never exceeds the limit, keeps order (generated inputs)", async () => {
    const random = mulberry32(42);
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)] as T;
    const words = [
      "the",
      "adoption",
      "agency",
      "Isabella",
      "JWT",
      "painting",
      "3.5",
      "用户系统",
      "登录",
      "模块",
      "的",
      "我们",
      "😀",
      "e-mail",
      "Dr.",
    ];
    const marks = [" ", " ", " ", "", "，", "。", ". ", "! ", "? ", "\n", "、", "; ", ", ", "…"];
    for (let round = 0; round < 60; round++) {
      const messages: ModelMessage[] = [];
      const count = 1 + Math.floor(random() * 8);
      for (let i = 0; i < count; i++) {
        let content = "";
        const length = pick([0, 1, 3, 8, 30, 120]) * (1 + Math.floor(random() * 3));
        for (let w = 0; w < length; w++) content += pick(words) + pick(marks);
        const role = pick(["user", "assistant", "system"] as const);
        messages.push(random() < 0.5 ? { index: i, role, content } : { index: i, role, content, name: "Ann" });
      }
      checkSegments(messages, await model.segment(messages));
    }
  });
});

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

describe("nameRelations", () => {
  it("says 关于 when the segment names the entity (any case, width, plural), else 相关", async () => {
    const relations = await model.nameRelations([
      { segment: "I took some photos at the lake.", entity: "Photo" },
      { segment: "What a party!", entity: "art" },
      { segment: "ＡＬＩＣＥ said hi", entity: "Alice's" },
      { segment: "We moved to New York.", entity: "new york" },
      { segment: "这个项目很重要", entity: "项目的" },
      { segment: "这个项目很重要", entity: "用户系统" },
      { segment: "我用ｊｗｔ做登录", entity: "JWT" },
    ]);
    expect(relations).toEqual([
      RELATION.about,
      RELATION.context,
      RELATION.about,
      RELATION.about,
      RELATION.about,
      RELATION.context,
      RELATION.about,
    ]);
  });
});

describe("compress", () => {
  it("returns the text unchanged when it fits", async () => {
    expect(await model.compress(EN_COMPRESS, 500)).toBe(EN_COMPRESS);
    expect(await model.compress(ZH_COMPRESS, codePointLength(ZH_COMPRESS))).toBe(ZH_COMPRESS);
  });

  it("keeps names, numbers and content words over filler, as the words themselves in order", async () => {
    // Whole clauses would lose words a question may ask for: the words themselves, in order.
    expect(await model.compress(EN_COMPRESS, 70)).toBe("long JWT migration login module finished whole team celebrated pizza");
    expect(await model.compress(EN_COMPRESS, 30)).toBe("day JWT migration login module");
    expect(await model.compress(ZH_COMPRESS, 30)).toBe("有点累登录模块JWT迁移完成团队披萨庆祝");
    expect(await model.compress(ZH_COMPRESS, 10)).toBe("模块JWT团队");
    // The filler goes first, even below the target, and a kept sentence sheds its function words
    // too (search never sees them): 22 code points where 50 were allowed.
    expect(await model.compress("Hi! Thanks so much. The JWT migration finished yesterday.", 50)).toBe("JWT migration finished");
    const pottery = "Oh wow, thanks! I signed up for a pottery class yesterday. It's like therapy for me.";
    expect(await model.compress(pottery, 60)).toBe("signed pottery class yesterday therapy");
    // A relative time word weighs as a plain content word: the memory keeps its date anyway.
    expect(await model.compress(pottery, 30)).toBe("signed pottery class therapy");
    expect(await model.compress("I have 2 kids and 3 cats, born in 2019. We live in Berlin and love it there so much, really.", 40)).toBe(
      "2 kids 3 cats born 2019 live Berlin",
    );
    // A name only addressed (a vocative) is who was spoken to, not what the memory is about.
    const necklace = "Thanks, Caroline! My grandma gave me this necklace in Sweden.";
    expect(await model.compress(necklace, 30)).toBe("grandma necklace Sweden");
    expect(await model.compress(necklace, 15)).toBe("necklace Sweden");
  });

  it("never exceeds the target, never returns empty, only uses the text's characters", async () => {
    const texts = [EN_COMPRESS, ZH_COMPRESS, EN_LONG, ZH_LONG, "Supercalifragilisticexpialidocious!", "我用JWT做登录😀"];
    for (const text of texts) {
      const length = codePointLength(text);
      const source = new Set(Array.from(text.toLowerCase()));
      for (let target = 1; target <= length + 1; target++) {
        const out = await model.compress(text, target);
        expect(codePointLength(out), `${text} @${target}`).toBeLessThanOrEqual(target);
        expect(out.trim(), `${text} @${target}`).not.toBe("");
        for (const ch of out.toLowerCase()) if (ch.trim() !== "") expect(source.has(ch), ch).toBe(true);
      }
    }
  });
});

describe("the compressor's candidate heap", () => {
  it("pops in order, ties in insertion order, across interleaved pushes and pops", () => {
    let seed = 7;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    type Item = { gain: number; seq: number };
    const heap = new BinaryHeap<Item>((a, b) => a.gain > b.gain || (a.gain === b.gain && a.seq < b.seq));
    const shadow: Item[] = [];
    let seq = 0;
    for (let step = 0; step < 2000; step++) {
      if (random() < 0.6 || shadow.length === 0) {
        const item = { gain: Math.floor(random() * 20), seq: seq++ };
        heap.push(item);
        shadow.push(item);
      } else {
        shadow.sort((a, b) => b.gain - a.gain || a.seq - b.seq);
        expect(heap.pop()).toBe(shadow.shift());
      }
      expect(heap.size).toBe(shadow.length);
    }
  });

  it("summarises a 2,000-sentence text with whole sentences of it, within the bound", async () => {
    const topics = ["harbour audit", "budget review", "launch plan", "Zanzibar trip", "JWT login"];
    const sentences = Array.from({ length: 2000 }, (_, i) => `The ${topics[i % 5]} moved to week ${i % 52}.`);
    const out = await model.summarize(sentences, 120);
    expect(codePointLength(out)).toBeLessThanOrEqual(120);
    const kept = out.split(/(?<=\.) /);
    expect(kept.length).toBeGreaterThanOrEqual(2);
    for (const s of kept) expect(sentences).toContain(s);
  });
});

describe("LruMap, the parse caches' bound", () => {
  it("makes a value once per key, keeps the most recently used and drops the oldest past its capacity", () => {
    const made: string[] = [];
    const lru = new LruMap<string, string>(2);
    const get = (k: string) => lru.getOrSet(k, (key) => (made.push(key), key.toUpperCase()));
    expect([get("a"), get("b"), get("a")]).toEqual(["A", "B", "A"]);
    expect(made).toEqual(["a", "b"]);
    get("c"); // over capacity: "b" is the least recently used, "a" was just read
    get("a");
    expect(made).toEqual(["a", "b", "c"]);
    get("b");
    expect(made).toEqual(["a", "b", "c", "b"]);
  });
});

describe("queryKeywords", () => {
  it("keeps content words of a question, without question words", async () => {
    expect(await model.queryKeywords("What did Isabella research about adoption agencies?")).toEqual([
      "Isabella",
      "research",
      "adoption",
      "agencies",
    ]);
    expect(await model.queryKeywords("When did Rosalie go camping with her kids? Camping!")).toEqual(["Rosalie", "camping", "kids"]);
    expect(await model.queryKeywords("Alice的项目什么时候上线？")).toEqual(["Alice", "项目", "上线"]);
    expect(await model.queryKeywords("小白喜欢吃什么？")).toEqual(["小白", "喜欢"]);
  });
});

describe("LocalEmbedder", () => {
  const cosine = (a: Float32Array, b: Float32Array): number => a.reduce((sum, x, i) => sum + x * (b[i] ?? 0), 0);

  it("gives similar texts a clearly higher cosine than unrelated ones, in both languages", async () => {
    const [a, b, c, d, e, f] = await new LocalEmbedder().embed([
      "I researched adoption agencies",
      "Isabella is researching an adoption agency",
      "The weather is sunny at the beach",
      "用户系统的登录模块设计",
      "登录模块采用JWT方案",
      "今天天气很好我们去爬山",
    ]);
    if (!a || !b || !c || !d || !e || !f) throw new Error("missing vectors");
    expect(cosine(a, b)).toBeGreaterThan(0.5);
    expect(cosine(a, b) - cosine(a, c)).toBeGreaterThan(0.4);
    expect(cosine(d, e)).toBeGreaterThan(0.25);
    expect(cosine(d, e) - cosine(d, f)).toBeGreaterThan(0.25);
  });

  it("returns unit vectors of the configured size, and zero for empty text", async () => {
    const embedder = new LocalEmbedder({ dimensions: 64 });
    expect(embedder.name).toBe("local-hash");
    expect(new LocalEmbedder().dimensions).toBe(256);
    const [v, empty] = await embedder.embed(["登录模块 login module", "  "]);
    expect(v?.length).toBe(64);
    expect(cosine(v ?? new Float32Array(), v ?? new Float32Array())).toBeCloseTo(1, 5);
    expect(empty?.every((x) => x === 0)).toBe(true);
    expect(() => new LocalEmbedder({ dimensions: 0 })).toThrow(RangeError);
  });
});

it("is deterministic: the same input gives identical output", async () => {
  const run = async () => ({
    segments: await model.segment([user(0, EN_LONG), user(1, "Hi!"), user(2, "你好！"), user(3, ZH_LONG)]),
    extractions: await model.extract([EN_LONG, ZH_LONG]),
    compressed: [await model.compress(EN_LONG, 40), await model.compress(ZH_LONG, 25)],
    keywords: await model.queryKeywords("What did Isabella paint? 她画了什么？"),
    vectors: (await new LocalEmbedder().embed([EN_LONG, ZH_LONG])).map((v) => Array.from(v)),
  });
  expect(await run()).toEqual(await run());
});

/** Checks the segmenter's contract for one input. */
function checkSegments(messages: readonly ModelMessage[], segments: readonly SegmentDraft[]): void {
  const visible = (s: string): string => s.replace(/\s+/g, "");
  let lastIndex = -1;
  for (const s of segments) {
    expect(s.text.trim()).not.toBe("");
    expect(s.messageIndexes.length).toBeGreaterThan(0);
    expect(s.messageIndexes[0]).toBeGreaterThanOrEqual(lastIndex);
    lastIndex = s.messageIndexes[s.messageIndexes.length - 1] ?? lastIndex;
    if (s.messageIndexes.length === 1) expect(codePointLength(s.text)).toBeLessThanOrEqual(SEGMENT_MAX_LATIN);
    const roles = s.messageIndexes.map((i) => messages[i]?.role);
    if (s.messageIndexes.length > 1) expect(roles).not.toContain("system");
  }
  for (const m of messages) {
    const covering = segments.filter((s) => s.messageIndexes.includes(m.index));
    if (m.content.trim() === "") {
      expect(covering).toEqual([]);
      continue;
    }
    const text = covering
      .map((s) => {
        if (s.messageIndexes.length === 1) return s.text;
        const line = s.text.split("\n")[s.messageIndexes.indexOf(m.index)] ?? "";
        return line.slice(line.indexOf(": ") + 2);
      })
      .join("");
    expect(visible(text)).toBe(visible(m.content));
  }
}

/** A small seeded PRNG, so generated inputs are the same on every run. */
function mulberry32(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
