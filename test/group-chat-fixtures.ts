/**
 * Group chats of four speakers for test/group-chat.test.ts, written for the test in the shape of the
 * benchmark's dev data (not copied from it): LoCoMo-style (English, sessions D1…Dn, turns with ids
 * "D1:3", questions with evidence ids) and MADial-style (Chinese, speakers' lines, questions about
 * one user's events). Every speaker talks about the same topics (pets, travel, work, hobbies, food),
 * so a question about one speaker has the other three's lines as competitors.
 */
export interface Turn {
  speaker: string;
  text: string;
  id: string;
}
export interface Question {
  speaker: string;
  query: string;
  evidence: string[];
}
export interface GroupChat {
  name: string;
  speakers: string[];
  sessions: Turn[][];
  questions: Question[];
}

/** What each speaker says per topic, and the question asked of it: [topic line, question]. */
type Facts = Record<string, [string, string][]>;

/**
 * Sessions of the chat: each session takes one topic per speaker in turn (speakers rotated so no
 * speaker always opens), each line followed by another speaker's short reply.
 */
function chatOf(name: string, facts: Facts, replies: readonly string[], topicsPerSession: number): GroupChat {
  const speakers = Object.keys(facts);
  const topics = facts[speakers[0]!]!.length;
  const sessions: Turn[][] = [];
  const questions: Question[] = [];
  for (let start = 0, d = 1; start < topics; start += topicsPerSession, d++) {
    const turns: Turn[] = [];
    for (let t = start; t < Math.min(topics, start + topicsPerSession); t++) {
      for (let k = 0; k < speakers.length; k++) {
        const speaker = speakers[(k + t) % speakers.length]!;
        const [line, question] = facts[speaker]![t]!;
        const id = `D${d}:${turns.length + 1}`;
        turns.push({ speaker, text: line, id });
        questions.push({ speaker, query: question, evidence: [id] });
        const replier = speakers[(k + t + 1) % speakers.length]!;
        turns.push({ speaker: replier, text: replies[(t * speakers.length + k) % replies.length]!, id: `D${d}:${turns.length + 1}` });
      }
    }
    sessions.push(turns);
  }
  return { name, speakers, sessions, questions };
}

export const LOCOMO_STYLE: GroupChat = chatOf(
  "LoCoMo-style",
  {
    Ann: [
      ["I adopted a beagle named Pepper last week, she chews every shoe.", "What dog did Ann adopt?"],
      ["I'm flying to Lisbon in June for a nursing conference.", "Where is Ann flying in June?"],
      ["Night shifts at the hospital ward are exhausting me lately.", "Where does Ann work night shifts?"],
      ["I've been learning pottery on Saturdays, my bowls are still lopsided.", "What does Ann learn on Saturdays?"],
      ["Green curry with extra basil is my comfort food.", "What is Ann's comfort food?"],
      ["My brother Tom is getting married in the autumn.", "Who is getting married in the autumn, according to Ann?"],
    ],
    Bo: [
      ["My cat Miso knocked the fern off the shelf again.", "What did Bo's cat knock over?"],
      ["We are driving to the Alps for a ski trip in January.", "Where is Bo driving in January?"],
      ["Grading algebra tests for my high school classes takes all evening.", "What does Bo grade in the evenings?"],
      ["I play bass guitar in a small jazz band on Fridays.", "Which instrument does Bo play?"],
      ["I can't stand cilantro, it tastes like soap to me.", "What food does Bo dislike?"],
      ["My sister Lena just had twins, two girls.", "Who just had twins, according to Bo?"],
    ],
    Chen: [
      ["I bought two goldfish for my daughter's birthday.", "What pets did Chen buy for the daughter?"],
      ["We are taking the train to Kyoto in April to see the temples.", "Where is Chen travelling in April?"],
      ["I just started as an architect at a firm downtown, designing a library.", "What is Chen designing at the new job?"],
      ["I run half marathons most weekends, my best time is under two hours.", "What does Chen run on weekends?"],
      ["Every Sunday I bake sourdough bread with rye flour.", "What does Chen bake on Sundays?"],
      ["My father retired from the post office this spring.", "Who retired this spring, according to Chen?"],
    ],
    Dara: [
      ["My parrot Kiwi learned to whistle the doorbell sound.", "What did Dara's parrot learn?"],
      ["I'm hiking in Patagonia this December with two friends.", "Where is Dara hiking in December?"],
      ["At work I'm rebuilding the payments service for the online shop.", "What is Dara rebuilding at work?"],
      ["I knit wool sweaters for my nephews every winter.", "What does Dara knit?"],
      ["Spicy miso ramen is the best dinner after a long week.", "What dinner does Dara like after a long week?"],
      ["My grandmother turns ninety next month, we are planning a party.", "Who turns ninety next month, according to Dara?"],
    ],
  },
  [
    "That sounds great!",
    "Haha, really?",
    "Oh nice, tell us more.",
    "Wow, good for you.",
    "I love that.",
    "No way!",
    "Same here, honestly.",
  ],
  2,
);

export const MADIAL_STYLE: GroupChat = chatOf(
  "MADial-style",
  {
    李雷: [
      ["我上周领养了一只橘猫，叫豆豆，特别爱睡觉。", "李雷领养了什么宠物？"],
      ["元旦我要去哈尔滨看冰雕。", "李雷元旦要去哪里？"],
      ["最近公司的项目上线，我天天加班写代码。", "李雷最近为什么加班？"],
      ["我周末在学弹吉他，手指都磨出茧了。", "李雷周末在学什么乐器？"],
      ["我最爱吃妈妈做的红烧肉。", "李雷最爱吃什么菜？"],
    ],
    韩梅梅: [
      ["我家的金毛昨天把沙发咬坏了。", "韩梅梅家的狗咬坏了什么？"],
      ["寒假我打算去海南三亚晒太阳。", "韩梅梅寒假打算去哪里？"],
      ["我在医院当护士，这个月一直上夜班。", "韩梅梅做什么工作？"],
      ["我最近迷上了画水彩画，画了很多风景。", "韩梅梅最近迷上了什么？"],
      ["我不能吃辣，一吃火锅就胃疼。", "韩梅梅不能吃什么？"],
    ],
    王芳: [
      ["我女儿养了两只小仓鼠，每天都要喂它们。", "王芳的女儿养了什么？"],
      ["五一我们全家要去西安看兵马俑。", "王芳五一要去哪里？"],
      ["我在小学教语文，下周要开家长会。", "王芳在小学教什么？"],
      ["我每天早上去公园跑步五公里。", "王芳每天早上做什么运动？"],
      ["周末我喜欢自己包饺子，韭菜馅的最好吃。", "王芳周末喜欢做什么吃的？"],
    ],
    张伟: [
      ["我养的鹦鹉学会说你好了。", "张伟的鹦鹉学会了什么？"],
      ["国庆我要去云南大理骑行。", "张伟国庆要去哪里？"],
      ["我是出租车司机，晚高峰最堵。", "张伟是做什么工作的？"],
      ["我喜欢钓鱼，上周钓到一条大鲤鱼。", "张伟上周钓到了什么？"],
      ["我每天都要喝一杯浓咖啡才能醒。", "张伟每天要喝什么？"],
    ],
  },
  ["太好了！", "哈哈，真的吗？", "好羡慕啊。", "加油！", "听起来不错。", "我也想去。"],
  2,
);
