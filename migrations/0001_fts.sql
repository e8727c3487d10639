-- Full-text index of node content, phrase and keywords (drizzle-kit cannot model virtual tables, so
-- this migration was created with `drizzle-kit generate --custom`). Text is pre-split into words with
-- Intl.Segmenter (Chinese) and a stemming tokenizer (English) before it is stored, so unicode61 matches
-- Chinese words of any length. rowid = agent * 2^30 + node id: every query is bounded to one agent's
-- rowid range, which FTS5 uses together with MATCH (src/storage/fts-repo.ts).
CREATE VIRTUAL TABLE `nodes_fts` USING fts5(`terms`, tokenize = 'unicode61 remove_diacritics 2');
