/**
 * English stop words: words that never name a thing or a domain, so they are neither keywords nor
 * entities (docs/design.md, "The model": keywords are "nouns and pronouns naming things or domains").
 *
 * Personal pronouns (I, you, she, they, ...) are stop words on purpose: in a conversation nearly every
 * message contains them, so they carry no retrieval signal, and they do not say *which* person is meant.
 * The names the pronouns stand for are what the memory keys on.
 *
 * Besides function words the set holds very common verbs, adverbs, adjectives, fillers and chat
 * interjections that appear in any topic (say, get, really, good, thanks, ...), and relative time
 * words (today, yesterday). Entries are lower case; contractions use the ASCII apostrophe.
 */

/** Words that glue a sentence together. Capitalised names never start or end with one of these. */
export const EN_FUNCTION_WORDS: ReadonlySet<string> = new Set(
  `a an the this that these those
  i me my mine myself you your yours yourself yourselves he him his himself she her hers herself
  it its itself we us our ours ourselves they them their theirs themselves
  who whom whose which what whatever whoever when whenever where wherever why how
  and or but nor so yet if then else than because since unless although though while whereas whether
  as at by for from in into of off on onto out over under up down upon with within without about
  above after against along among around before behind below beneath beside besides between beyond
  during except inside near outside past per through throughout till to toward towards until via
  am is are was were be been being have has had having do does did doing done
  can could will would shall should may might must ought
  not no yes all any both each either neither every few more most other another such some own same
  only just also too very there here
  i'm i've i'll i'd you're you've you'll you'd he'd she'd we're we've we'll we'd they're they've
  they'll they'd don't doesn't didn't can't cannot won't wouldn't shouldn't couldn't isn't aren't
  wasn't weren't haven't hasn't hadn't mustn't ain't y'all`.split(/\s+/),
);

const MORE = `
  say says said saying tell tells told telling ask asks asked asking talk talks talked talking
  get gets got gotten getting go goes went gone going come comes came coming make makes made making
  take takes took taken taking give gives gave given giving put puts keep keeps kept keeping
  let lets know knows knew known knowing think thinks thought thinking want wants wanted wanting
  like likes liked need needs needed see sees saw seen look looks looked looking seem seems seemed
  feel feels felt feeling try tries tried trying mean means meant use uses used using find finds found
  guess hope hoped wish become became happen happens happened sound sounds sounded glad
  really actually basically literally definitely certainly probably maybe perhaps always never often
  sometimes usually already still even ever again soon now later anyway anymore almost quite rather
  pretty much many lot lots bit kind sort thing things stuff something anything everything nothing
  someone anyone everyone somebody anybody everybody nobody somewhere anywhere everywhere
  way ways well else
  today yesterday tomorrow tonight recently lately currently
  good great nice cool awesome amazing wonderful fantastic fine bad sure right true okay ok
  hi hello hey bye goodbye thanks thank please sorry oh ah wow yeah yep nope hmm haha lol omg btw
  idk tbh imo um uh
  one two three first second next last
  able lovely totally super absolutely exactly especially big small little large huge tiny best better
  worse worst different important hard easy
  etc vs via`;

export const EN_STOP_WORDS: ReadonlySet<string> = new Set([...EN_FUNCTION_WORDS, ...MORE.split(/\s+/).filter((w) => w !== "")]);
