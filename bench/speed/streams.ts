/**
 * Synthetic, deterministic chat streams for the speed benchmark, in English and in Chinese: short
 * user/assistant exchanges built from templates with varied people, places, projects, numbers and
 * days, so that segmentation, entity extraction and linking do realistic work. Nothing comes from
 * ../shared (the speed bench needs no data set) and the same seed always gives the same stream.
 * Pure module.
 */
import { seededRandom } from "../../src/memory/capacity";
import type { Message } from "../driver/agent-api";

export type StreamLang = "en" | "zh";

/** mulberry32, the product's own seeded PRNG (a pure module): deterministic across platforms. */
export const prng = seededRandom;

export const pick = <T>(rand: () => number, xs: readonly T[]): T => {
  const x = xs[Math.floor(rand() * xs.length)];
  if (x === undefined) throw new Error("pick from an empty list");
  return x;
};

interface Vocabulary {
  names: readonly string[];
  places: readonly string[];
  cities: readonly string[];
  projects: readonly string[];
  topics: readonly string[];
  days: readonly string[];
  user: readonly ((v: Fill) => string)[];
  assistant: readonly ((v: Fill) => string)[];
}

interface Fill {
  name: string;
  other: string;
  place: string;
  city: string;
  project: string;
  topic: string;
  day: string;
  n: number;
}

const EN: Vocabulary = {
  names: [
    "Alice",
    "Bruno",
    "Chen",
    "Dmitri",
    "Elena",
    "Farah",
    "Gustav",
    "Hana",
    "Ines",
    "Jonas",
    "Kofi",
    "Lucia",
    "Mateo",
    "Nadia",
    "Oscar",
    "Priya",
    "Quentin",
    "Rosa",
    "Sven",
    "Tomoko",
  ],
  places: ["library", "bakery", "gym", "harbour", "museum", "office", "garden", "station", "clinic", "studio"],
  cities: ["Lisbon", "Nairobi", "Osaka", "Toronto", "Krakow", "Lima", "Hanoi", "Dublin", "Austin", "Porto"],
  projects: ["billing", "onboarding", "search", "payroll", "mobile app", "dashboard", "data pipeline", "checkout"],
  topics: [
    "pottery",
    "marathon training",
    "jazz piano",
    "sourdough",
    "birdwatching",
    "chess",
    "hiking",
    "photography",
    "gardening",
    "astronomy",
  ],
  days: ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"],
  user: [
    (v) => `I met ${v.name} at the ${v.place} in ${v.city} and we talked about ${v.topic} for ${v.n} minutes.`,
    (v) => `${v.name} says the ${v.project} review moved to ${v.day} at ${(v.n % 12) + 1} pm.`,
    (v) => `Can you remember that ${v.name} is flying to ${v.city} on ${v.day}? The budget is ${v.n * 10} dollars.`,
    (v) => `The ${v.project} deploy failed ${v.n % 9} times this week; ${v.name} thinks the ${v.place} network is the cause.`,
    (v) => `My friend ${v.other} started ${v.topic} lessons with ${v.name} in ${v.city} last ${v.day}.`,
    (v) => `Remind me to call ${v.name} about the ${v.project} contract before ${v.day}, it is worth ${v.n} thousand.`,
  ],
  assistant: [
    (v) => `Noted: ${v.name} and ${v.topic} in ${v.city}. Do you want a reminder before ${v.day}?`,
    (v) => `I have saved that the ${v.project} meeting with ${v.name} is on ${v.day}.`,
    (v) => `Got it. ${v.name} travels to ${v.city}; I will keep the ${v.n * 10} dollar budget in mind.`,
    (v) => `That sounds fun! How long has ${v.other} been interested in ${v.topic}?`,
  ],
};

const ZH: Vocabulary = {
  names: [
    "张伟",
    "李娜",
    "王芳",
    "刘洋",
    "陈静",
    "杨磊",
    "赵敏",
    "黄强",
    "周杰",
    "吴霞",
    "徐明",
    "孙丽",
    "马超",
    "朱婷",
    "胡斌",
    "郭亮",
    "林峰",
    "何琳",
    "高翔",
    "罗佳",
  ],
  places: ["图书馆", "面包店", "健身房", "码头", "博物馆", "办公室", "花园", "火车站", "诊所", "工作室"],
  cities: ["北京", "上海", "成都", "杭州", "西安", "广州", "武汉", "南京", "重庆", "厦门"],
  projects: ["计费系统", "用户系统", "搜索模块", "薪资系统", "移动应用", "数据看板", "数据管道", "支付流程"],
  topics: ["陶艺", "马拉松训练", "爵士钢琴", "烘焙", "观鸟", "围棋", "徒步", "摄影", "园艺", "天文"],
  days: ["周一", "周二", "周三", "周四", "周五", "周六", "周日"],
  user: [
    (v) => `我在${v.city}的${v.place}遇到了${v.name}，我们聊了${v.n}分钟的${v.topic}。`,
    (v) => `${v.name}说${v.project}的评审改到${v.day}下午${(v.n % 12) + 1}点了。`,
    (v) => `帮我记一下，${v.name}${v.day}要飞去${v.city}，预算是${v.n * 10}元。`,
    (v) => `这周${v.project}上线失败了${v.n % 9}次，${v.name}觉得是${v.place}的网络有问题。`,
    (v) => `我朋友${v.other}上个${v.day}在${v.city}跟${v.name}开始学${v.topic}了。`,
    (v) => `提醒我在${v.day}之前给${v.name}打电话，谈${v.project}的合同，金额${v.n}万。`,
  ],
  assistant: [
    (v) => `好的，已记下：${v.name}在${v.city}学${v.topic}。需要在${v.day}之前提醒你吗？`,
    (v) => `已保存：${v.project}的会议和${v.name}定在${v.day}。`,
    (v) => `明白了，${v.name}要去${v.city}，我会记住${v.n * 10}元的预算。`,
    (v) => `听起来很有意思！${v.other}对${v.topic}感兴趣多久了？`,
  ],
};

export const vocabulary = (lang: StreamLang): Vocabulary => (lang === "en" ? EN : ZH);

/** 2024-01-01T00:00:00Z: the streams' first timestamp; one message a minute after it. */
const BASE_TIME = Date.UTC(2024, 0, 1);

/** `count` messages alternating user and assistant, ids `${idPrefix}-${i}`. */
export function chatStream(lang: StreamLang, count: number, seed: number, idPrefix: string): Message[] {
  const v = vocabulary(lang);
  const rand = prng(seed);
  const out: Message[] = [];
  for (let i = 0; i < count; i += 1) {
    const fill: Fill = {
      name: pick(rand, v.names),
      other: pick(rand, v.names),
      place: pick(rand, v.places),
      city: pick(rand, v.cities),
      project: pick(rand, v.projects),
      topic: pick(rand, v.topics),
      day: pick(rand, v.days),
      n: 5 + Math.floor(rand() * 90),
    };
    const user = i % 2 === 0;
    const template = pick(rand, user ? v.user : v.assistant);
    const message: Message = {
      role: user ? "user" : "assistant",
      content: template(fill),
      timestamp: BASE_TIME + i * 60_000,
      id: `${idPrefix}-${i}`,
    };
    if (user) message.name = lang === "en" ? "Sam" : "小林";
    out.push(message);
  }
  return out;
}

/** Deterministic recall keywords (two of the stream's people, places, cities or topics). */
export function keywordQueries(lang: StreamLang, count: number, seed: number): string[][] {
  const v = vocabulary(lang);
  const rand = prng(seed);
  const pools = [v.names, v.places, v.cities, v.topics, v.projects];
  return Array.from({ length: count }, () => [pick(rand, pick(rand, pools)), pick(rand, pick(rand, pools))]);
}

/** Deterministic free-text search queries built from the stream's vocabulary. */
export function searchQueries(lang: StreamLang, count: number, seed: number): string[] {
  const v = vocabulary(lang);
  const rand = prng(seed);
  return Array.from({ length: count }, () =>
    lang === "en"
      ? `${pick(rand, v.names)} ${pick(rand, v.topics)} in ${pick(rand, v.cities)}`
      : `${pick(rand, v.names)}在${pick(rand, v.cities)}的${pick(rand, v.topics)}`,
  );
}
