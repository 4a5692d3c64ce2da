-- Stemmed search (hand-written: Prisma has no FTS5 model). A second FTS5 table over the same
-- "SearchEntry" rows stores the words' Porter stems ("webhooks" and "webhook" both as
-- "webhook"); the first one keeps the words as typed, for prefixes and for ranking an entry
-- with the exact words (an identifier, a file name) above its other forms. No prefix index
-- here: prefix queries go to the table of the words as typed (lib/search/text.ts).
CREATE VIRTUAL TABLE "SearchEntryStem" USING fts5(
    title, body,
    content='SearchEntry', content_rowid='id',
    tokenize='porter unicode61 remove_diacritics 2'
);

-- One trigger per change keeps both tables in step (the bulk fill in
-- lib/db/repositories/search.ts drops and recreates the insert trigger and fills both).
DROP TRIGGER "SearchEntry_fts_insert";
DROP TRIGGER "SearchEntry_fts_delete";
DROP TRIGGER "SearchEntry_fts_update";
CREATE TRIGGER "SearchEntry_fts_insert" AFTER INSERT ON "SearchEntry" BEGIN
    INSERT INTO "SearchEntryFts" (rowid, title, body) VALUES (new."id", new."title", new."body");
    INSERT INTO "SearchEntryStem" (rowid, title, body) VALUES (new."id", new."title", new."body");
END;
CREATE TRIGGER "SearchEntry_fts_delete" AFTER DELETE ON "SearchEntry" BEGIN
    INSERT INTO "SearchEntryFts" ("SearchEntryFts", rowid, title, body) VALUES ('delete', old."id", old."title", old."body");
    INSERT INTO "SearchEntryStem" ("SearchEntryStem", rowid, title, body) VALUES ('delete', old."id", old."title", old."body");
END;
CREATE TRIGGER "SearchEntry_fts_update" AFTER UPDATE OF "title", "body" ON "SearchEntry" BEGIN
    INSERT INTO "SearchEntryFts" ("SearchEntryFts", rowid, title, body) VALUES ('delete', old."id", old."title", old."body");
    INSERT INTO "SearchEntryStem" ("SearchEntryStem", rowid, title, body) VALUES ('delete', old."id", old."title", old."body");
    INSERT INTO "SearchEntryFts" (rowid, title, body) VALUES (new."id", new."title", new."body");
    INSERT INTO "SearchEntryStem" (rowid, title, body) VALUES (new."id", new."title", new."body");
END;

-- Every entry already stored is stemmed now, from its stored title and body.
INSERT INTO "SearchEntryStem" ("SearchEntryStem") VALUES ('rebuild');

-- The knowledge base's docs/ files are indexed from this version on: no stored freshness
-- record may answer "unchanged" for a project whose docs were never read, so each project's
-- next index lists its files again (and reads only the docs, whose files are new to it).
DELETE FROM "IndexFreshness";
