-- Stemmed search (hand-written: Prisma has no tsvector model). Beside "tsv" (the words as
-- typed, configuration "workbench"), "tsvStem" holds their English Snowball stems
-- ("webhooks" and "webhook" both as "webhook"), the counterpart of FTS5's porter tokenizer
-- on SQLite. "tsv" stays for prefixes and for ranking an entry with the exact words (an
-- identifier, a file name) above its other forms. The stemmer has no stopword list: as on
-- SQLite, every word typed is searched.
CREATE EXTENSION IF NOT EXISTS unaccent;
DO $$
BEGIN
    IF NOT EXISTS (SELECT 1 FROM pg_ts_dict WHERE dictname = 'workbench_stem') THEN
        CREATE TEXT SEARCH DICTIONARY workbench_stem (TEMPLATE = snowball, Language = english);
    END IF;
    IF NOT EXISTS (SELECT 1 FROM pg_ts_config WHERE cfgname = 'workbench_stem') THEN
        CREATE TEXT SEARCH CONFIGURATION workbench_stem (COPY = simple);
        ALTER TEXT SEARCH CONFIGURATION workbench_stem
            ALTER MAPPING FOR asciiword, word, numword, asciihword, hword, numhword, hword_asciipart, hword_part, hword_numpart WITH unaccent, workbench_stem;
    END IF;
END $$;
ALTER TABLE "SearchEntry" ADD COLUMN "tsvStem" tsvector NOT NULL DEFAULT ''::tsvector;

-- Every entry already stored is stemmed now, from its stored words: each lexeme of "tsv"
-- (already unaccented and lower case) through the stemmer, with its positions and weights.
UPDATE "SearchEntry" e SET "tsvStem" = coalesce((
    SELECT string_agg(
        '''' || replace(replace(coalesce((ts_lexize('workbench_stem', u.lexeme))[1], u.lexeme), '\', '\\'), '''', '''''') || ''''
            || coalesce(':' || (SELECT string_agg(x.p::text || x.w, ',') FROM unnest(u.positions, u.weights) AS x(p, w)), ''),
        ' ')
    FROM unnest(e."tsv") AS u)::tsvector, ''::tsvector)
WHERE e."tsv" <> ''::tsvector;

CREATE INDEX "SearchEntry_tsvStem_idx" ON "SearchEntry" USING GIN ("tsvStem");

-- The knowledge base's docs/ files are indexed from this version on: no stored freshness
-- record may answer "unchanged" for a project whose docs were never read, so each project's
-- next index lists its files again (and reads only the docs, whose files are new to it).
DELETE FROM "IndexFreshness";
