/**
 * Relative time expressions resolved to absolute dates against a reference time (docs/design.md
 * "Memory operations", explicit memories: times as specific as possible, 今天 becomes the date). Pure: the same
 * text and reference give the same answer.
 *
 * Dates are calendar dates in UTC (a message time carries no time zone). Weeks start on Monday.
 * What is resolved, in English and Chinese:
 *
 * - days: today, tonight, this morning/afternoon/evening, yesterday, last night, the day before
 *   yesterday, tomorrow, the day after tomorrow, N days ago, in N days; 今天 今日 今早 今晚 昨天 昨日
 *   昨晚 前天 大前天 明天 明日 后天 大后天, N天前, N天后;
 * - weekdays: last/this/next Monday…Sunday ("last Friday" is the latest Friday before the reference
 *   day; "this"/"next" Friday is the Friday of the current/next week); 上周五 这周五 本周五 下周五
 *   (also 星期/礼拜, and 上个星期五): the day of the previous, current or next week;
 * - weeks: last/this/next week, N weeks ago, in N weeks; 上周 这周 本周 下周, N周前/后 (as the
 *   week's Monday: "the week of 2025-11-03", "2025-11-03那一周");
 * - months and years: last/this/next month, last/this/next year, N months/years ago; 上个月 这个月
 *   本月 下个月 去年 前年 今年 明年 后年, N个月前, N年前 ("2025-10", "2025年10月", "2024", "2024年").
 *
 * A bare weekday ("on Friday", 周五) says nothing about which week and is left as it is.
 */

import { EN_NUMBER_WORDS, parseSmallNumber } from "../number-words";

export type TimeUnit = "day" | "week" | "month" | "year";

export interface ResolvedTime {
  /** The expression as it appears in the text. */
  expression: string;
  /** The absolute value: YYYY-MM-DD (a day or a week's Monday), YYYY-MM or YYYY. */
  value: string;
  unit: TimeUnit;
}

export interface ResolvedText {
  /** The text with each expression followed by its absolute value: "yesterday (2025-11-04)", "昨天（2025-11-04）". */
  text: string;
  resolved: ResolvedTime[];
}

const DAY_MS = 86_400_000;

/** A count in a relative time: a number word, or an article ("a week ago"). */
const EN_COUNTS: Readonly<Record<string, number>> = { a: 1, an: 1, ...EN_NUMBER_WORDS };

const EN_WEEKDAYS = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"] as const;
const ZH_WEEKDAYS: Readonly<Record<string, number>> = { 一: 0, 二: 1, 三: 2, 四: 3, 五: 4, 六: 5, 日: 6, 天: 6 };

interface Rule {
  pattern: RegExp;
  resolve(match: RegExpExecArray, reference: Date): { date: Date; unit: TimeUnit } | undefined;
}

function enNumber(text: string): number | undefined {
  const lower = text.toLowerCase();
  return /^\d+$/.test(lower) ? Number(lower) : EN_COUNTS[lower];
}

function utcDay(ms: number): Date {
  const d = new Date(ms);
  return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate()));
}

function addDays(date: Date, days: number): Date {
  return new Date(date.getTime() + days * DAY_MS);
}

function addMonths(date: Date, months: number): Date {
  return new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + months, 1));
}

function addYears(date: Date, years: number): Date {
  return new Date(Date.UTC(date.getUTCFullYear() + years, 0, 1));
}

/** Monday = 0 … Sunday = 6. */
function weekdayOf(date: Date): number {
  return (date.getUTCDay() + 6) % 7;
}

function mondayOf(date: Date): Date {
  return addDays(date, -weekdayOf(date));
}

function shift(unit: TimeUnit, reference: Date, amount: number): { date: Date; unit: TimeUnit } {
  switch (unit) {
    case "day":
      return { date: addDays(reference, amount), unit };
    case "week":
      return { date: addDays(mondayOf(reference), 7 * amount), unit };
    case "month":
      return { date: addMonths(reference, amount), unit };
    case "year":
      return { date: addYears(reference, amount), unit };
  }
}

const EN_UNITS: Readonly<Record<string, TimeUnit>> = {
  day: "day",
  days: "day",
  week: "week",
  weeks: "week",
  month: "month",
  months: "month",
  year: "year",
  years: "year",
};
const ZH_UNITS: Readonly<Record<string, TimeUnit>> = {
  天: "day",
  日: "day",
  周: "week",
  个星期: "week",
  个礼拜: "week",
  个月: "month",
  年: "year",
};
const ZH_WHICH: Readonly<Record<string, number>> = { 上: -1, 上个: -1, 这: 0, 这个: 0, 本: 0, 下: 1, 下个: 1 };

const EN_NUMBER_WORD = `\\d{1,3}|${Object.keys(EN_COUNTS).join("|")}`;

/** Longest expressions first: "the day before yesterday" before "yesterday". */
const RULES: readonly Rule[] = [
  {
    pattern: /\bthe day before yesterday\b/gi,
    resolve: (_m, ref) => shift("day", ref, -2),
  },
  {
    pattern: /\bthe day after tomorrow\b/gi,
    resolve: (_m, ref) => shift("day", ref, 2),
  },
  {
    pattern: new RegExp(`\\b(${EN_NUMBER_WORD}) (days?|weeks?|months?|years?) ago\\b`, "gi"),
    resolve: (m, ref) => {
      const n = enNumber(m[1] ?? "");
      const unit = EN_UNITS[(m[2] ?? "").toLowerCase()];
      return n === undefined || !unit ? undefined : shift(unit, ref, -n);
    },
  },
  {
    pattern: new RegExp(`\\bin (${EN_NUMBER_WORD}) (days?|weeks?|months?|years?)\\b`, "gi"),
    resolve: (m, ref) => {
      const n = enNumber(m[1] ?? "");
      const unit = EN_UNITS[(m[2] ?? "").toLowerCase()];
      return n === undefined || !unit ? undefined : shift(unit, ref, n);
    },
  },
  {
    pattern: /\b(last|this|next) (monday|tuesday|wednesday|thursday|friday|saturday|sunday)\b/gi,
    resolve: (m, ref) => {
      const target = EN_WEEKDAYS.indexOf((m[2] ?? "").toLowerCase() as (typeof EN_WEEKDAYS)[number]);
      const which = (m[1] ?? "").toLowerCase();
      if (which === "last") {
        const back = (weekdayOf(ref) - target + 7) % 7 || 7;
        return { date: addDays(ref, -back), unit: "day" };
      }
      return { date: addDays(mondayOf(ref), target + (which === "next" ? 7 : 0)), unit: "day" };
    },
  },
  {
    pattern: /\b(last|this|next) (week|month|year)\b/gi,
    resolve: (m, ref) => {
      const amount = { last: -1, this: 0, next: 1 }[(m[1] ?? "").toLowerCase() as "last" | "this" | "next"];
      const unit = EN_UNITS[(m[2] ?? "").toLowerCase()];
      return unit ? shift(unit, ref, amount) : undefined;
    },
  },
  { pattern: /\blast night\b/gi, resolve: (_m, ref) => shift("day", ref, -1) },
  { pattern: /\bthis (morning|afternoon|evening)\b/gi, resolve: (_m, ref) => shift("day", ref, 0) },
  { pattern: /\byesterday\b/gi, resolve: (_m, ref) => shift("day", ref, -1) },
  { pattern: /\btomorrow\b/gi, resolve: (_m, ref) => shift("day", ref, 1) },
  { pattern: /\b(today|tonight)\b/gi, resolve: (_m, ref) => shift("day", ref, 0) },
  {
    pattern: /(上个|下个|上|下|这个|这|本)(?:周|星期|礼拜)([一二三四五六日天])/gu,
    resolve: (m, ref) => {
      const week = ZH_WHICH[m[1] ?? ""];
      const day = ZH_WEEKDAYS[m[2] ?? ""];
      return week === undefined || day === undefined ? undefined : { date: addDays(mondayOf(ref), 7 * week + day), unit: "day" };
    },
  },
  {
    pattern: /([0-9]{1,3}|[一二两三四五六七八九十]{1,3})(天|日|周|个星期|个礼拜|个月|年)(?:以前|之前|前)/gu,
    resolve: (m, ref) => {
      const n = parseSmallNumber(m[1] ?? "");
      const unit = ZH_UNITS[m[2] ?? ""];
      return n === undefined || !unit ? undefined : shift(unit, ref, -n);
    },
  },
  {
    pattern: /([0-9]{1,3}|[一二两三四五六七八九十]{1,3})(天|日|周|个星期|个礼拜|个月|年)(?:以后|之后|后)/gu,
    resolve: (m, ref) => {
      const n = parseSmallNumber(m[1] ?? "");
      const unit = ZH_UNITS[m[2] ?? ""];
      return n === undefined || !unit ? undefined : shift(unit, ref, n);
    },
  },
  {
    pattern: /(上个|下个|上|下|这个|这|本)(周|星期|礼拜|月)/gu,
    resolve: (m, ref) => {
      const which = ZH_WHICH[m[1] ?? ""];
      if (which === undefined) return undefined;
      // 上月/下月 and 上个月/这个月: months; 上周/这星期: weeks (上个/下个 + 周 is not said, 上个星期 is).
      return shift(m[2] === "月" ? "month" : "week", ref, which);
    },
  },
  { pattern: /大前天/gu, resolve: (_m, ref) => shift("day", ref, -3) },
  { pattern: /大后天/gu, resolve: (_m, ref) => shift("day", ref, 3) },
  { pattern: /前天/gu, resolve: (_m, ref) => shift("day", ref, -2) },
  { pattern: /后天/gu, resolve: (_m, ref) => shift("day", ref, 2) },
  { pattern: /昨天|昨日|昨晚|昨夜/gu, resolve: (_m, ref) => shift("day", ref, -1) },
  { pattern: /今天|今日|今早|今晚|今夜/gu, resolve: (_m, ref) => shift("day", ref, 0) },
  { pattern: /明天|明日|明早|明晚/gu, resolve: (_m, ref) => shift("day", ref, 1) },
  { pattern: /前年/gu, resolve: (_m, ref) => shift("year", ref, -2) },
  { pattern: /去年/gu, resolve: (_m, ref) => shift("year", ref, -1) },
  { pattern: /今年/gu, resolve: (_m, ref) => shift("year", ref, 0) },
  { pattern: /明年/gu, resolve: (_m, ref) => shift("year", ref, 1) },
  { pattern: /后年/gu, resolve: (_m, ref) => shift("year", ref, 2) },
];

const pad = (n: number, width = 2) => String(n).padStart(width, "0");

function formatValue(date: Date, unit: TimeUnit): string {
  const year = pad(date.getUTCFullYear(), 4);
  const month = pad(date.getUTCMonth() + 1);
  if (unit === "year") return year;
  if (unit === "month") return `${year}-${month}`;
  return `${year}-${month}-${pad(date.getUTCDate())}`;
}

const HAS_CJK = /[\p{Script=Han}]/u;

/** How an absolute value reads after its expression, in the text's language. */
function annotation(found: ResolvedTime, chinese: boolean): string {
  if (chinese) {
    if (found.unit === "week") return `${found.value}那一周`;
    if (found.unit === "month") return `${found.value.slice(0, 4)}年${Number(found.value.slice(5))}月`;
    if (found.unit === "year") return `${found.value}年`;
    return found.value;
  }
  return found.unit === "week" ? `the week of ${found.value}` : found.value;
}

interface Match {
  start: number;
  end: number;
  found: ResolvedTime;
}

/** Every relative expression of `text`, leftmost-longest, none overlapping. */
function findAll(text: string, referenceMs: number): Match[] {
  const reference = utcDay(referenceMs);
  const matches: Match[] = [];
  for (const rule of RULES) {
    rule.pattern.lastIndex = 0;
    for (let m = rule.pattern.exec(text); m !== null; m = rule.pattern.exec(text)) {
      const start = m.index;
      const end = start + m[0].length;
      if (matches.some((x) => start < x.end && x.start < end)) continue;
      const resolved = rule.resolve(m, reference);
      if (!resolved) continue;
      matches.push({ start, end, found: { expression: m[0], value: formatValue(resolved.date, resolved.unit), unit: resolved.unit } });
    }
  }
  return matches.sort((a, b) => a.start - b.start);
}

/**
 * `text` with each relative time expression followed by its absolute value in parentheses (the
 * words themselves stay: they are what the speaker said, and what a search may use).
 */
export function resolveRelativeTimes(text: string, referenceMs: number): ResolvedText {
  const matches = findAll(text, referenceMs);
  if (matches.length === 0) return { text, resolved: [] };
  const chinese = HAS_CJK.test(text);
  let out = "";
  let at = 0;
  for (const m of matches) {
    const value = annotation(m.found, chinese);
    out += text.slice(at, m.end) + (chinese ? `（${value}）` : ` (${value})`);
    at = m.end;
  }
  return { text: out + text.slice(at), resolved: matches.map((m) => m.found) };
}

/**
 * A time value given on its own (a structured memory's `time` attribute): the absolute value when
 * the whole value is one relative expression ("昨天" → "2025-11-04"), otherwise the value with its
 * expressions annotated as resolveRelativeTimes does.
 */
export function resolveTimeValue(value: string, referenceMs: number): ResolvedText {
  const trimmed = value.trim();
  const matches = findAll(trimmed, referenceMs);
  const only = matches[0];
  if (matches.length === 1 && only && only.start === 0 && only.end === trimmed.length) {
    return { text: annotation(only.found, HAS_CJK.test(trimmed)), resolved: [only.found] };
  }
  return resolveRelativeTimes(trimmed, referenceMs);
}
