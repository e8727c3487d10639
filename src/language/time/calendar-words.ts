/**
 * Names of days and months, in English and Chinese. They are content words (a temporal question
 * asks about "Friday" or 三月, so they stay keywords), but poor entities: an entity node joins the
 * focus and every new segment links to it, and "Friday" is not what a conversation is about, only
 * when something happened. Before this list, two of the five focus slots of a synthetic English
 * stream were weekdays.
 */

const EN = `
  monday tuesday wednesday thursday friday saturday sunday
  mon tue tues wed thu thur thurs fri sat sun
  january february march april may june july august september october november december
  jan feb mar apr jun jul aug sep sept oct nov dec
  weekday weekdays weekend weekends`;

const EN_WORDS: ReadonlySet<string> = new Set(EN.split(/\s+/).filter((w) => w !== ""));

/** 星期五, 礼拜天, 周日, 三月, 十二月, 12月, 周末. */
const ZH = /^(?:(?:星期|礼拜|周)[一二三四五六七日天]|(?:[一二三四五六七八九十]|十[一二]|1[0-2]|0?[1-9])月(?:份)?|周末|月初|月底|月末)$/u;

/** True for a day or month name (`key`: an entity key, src/language/entities/entity-key.ts). */
export function isCalendarWord(key: string): boolean {
  return EN_WORDS.has(key) || ZH.test(key);
}
