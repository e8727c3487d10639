/**
 * Chinese stop words: particles, function words, pronouns, light verbs, degree adverbs, relative time
 * words and fillers. None of them names a thing or a domain, so they are neither keywords nor
 * entities (docs/design.md, "The model").
 *
 * Pronouns (我 你 他 她 它 们 我们 ...) are stop words: every chat message contains them, they carry
 * no retrieval signal and do not say which person is meant.
 *
 * The single-character entries matter most: a single character survives as a content term only if
 * it is NOT in this set (see `contentTerms`), so every common single-character particle,
 * preposition, light verb, adverb, numeral and measure word is listed here. What remains are mostly
 * nouns such as 花 猫 书 鱼.
 */

const SINGLE =
  "的地得了着过吗呢吧啊呀哦哈嘛啦哇嗯噢喔哎唉么之而且或及与和跟同并但却则即亦乃其此彼该各每某本所以于为被把将让给对向往从自由在到比按照据因故如若虽就都也还又再才只很太更最挺真不没别已曾正刚要会能可应是有做用说讲看见去来想叫等个些点下上中里内外前后时次种件位样多少几一二三四五六七八九十百千万两零我你您他她它们咱谁啥这那哪吃喝玩买卖听读写走跑坐站睡找送拿带放发打开关问答请谢好";

const WORDS = `
  我们 你们 他们 她们 它们 咱们 大家 自己 人家 别人 我的 你的 他的 她的 它的 我们的
  这个 那个 哪个 这些 那些 哪些 这样 那样 这么 那么 怎么 怎样 怎么样 如何 什么 为什么 多少 是否
  这里 那里 哪里 这儿 那儿 哪儿 其他 其它 另外 一些 一下 一点 一样 一起 一直 一定 一般 一个 一种
  一次 有些 有点 有的 没有 不是 就是 还是 但是 可是 而且 或者 因为 所以 然后 如果 虽然 不过 只是
  而是 于是 因此 并且 以及 然而 否则 即使 尽管 不但 只要 只有 除了 关于 对于 通过 根据 按照 为了
  由于 包括 比如 例如 等等 之类
  以后 之后 以前 之前 时候 现在 今天 昨天 明天 前天 后天 今年 去年 明年 刚才 刚刚 已经 正在 马上
  上周 下周 本周 这周 上个月 下个月 这个月 本月 最近 当时 那时 早上 上午 中午 下午 晚上 今晚 昨晚
  可以 可能 应该 需要 能够 必须 一定 也许 或许 大概 觉得 知道 认为 感觉 发现 表示 希望 打算 想要
  想去 想说 开始 继续 进行 出来 起来 下来 上来 过来 回来 出去
  非常 特别 比较 十分 相当 真的 确实 其实 当然 果然 居然 竟然 终于 仍然 还有 还要 又是 也是 都是
  就是 不会 不能 不要 不用 不行 不错 可不 好的 好吧 好啊 是的 对的 对啊 没错 嗯嗯 哈哈 呵呵 谢谢
  你好 您好 请问 再见 拜拜 东西 事情 情况 方面 时间 地方 的话 的时候 来说 而言 很多 许多
  所有 一切 每个 任何 有人 没人 的是 就是说 部分 一部分
  上面 下面 里面 外面 前面 后面 旁边 这边 那边 什么时候 什么样 怎么办 多久 几点 哪天 多长时间`;

export const ZH_STOP_WORDS: ReadonlySet<string> = new Set([...Array.from(SINGLE), ...WORDS.split(/\s+/).filter((w) => w !== "")]);
