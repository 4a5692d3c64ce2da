-- CreateTable
CREATE TABLE "SearchEntry" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "projectId" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "ref" TEXT NOT NULL,
    "title" TEXT NOT NULL,
    "body" TEXT NOT NULL,
    "status" TEXT,
    "date" TEXT,
    "href" TEXT NOT NULL,
    "hash" TEXT NOT NULL,
    CONSTRAINT "SearchEntry_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "Project" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "SearchSource" (
    "projectId" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "fingerprint" TEXT NOT NULL,

    PRIMARY KEY ("projectId", "key"),
    CONSTRAINT "SearchSource_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "Project" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "SavedView" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "projectId" TEXT NOT NULL,
    "surface" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "query" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "SavedView_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "Project" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE INDEX "SearchEntry_kind_idx" ON "SearchEntry"("kind");

-- CreateIndex
CREATE UNIQUE INDEX "SearchEntry_projectId_kind_ref_key" ON "SearchEntry"("projectId", "kind", "ref");

-- CreateIndex
CREATE UNIQUE INDEX "SavedView_projectId_surface_name_key" ON "SavedView"("projectId", "surface", "name");


-- Full-text index (hand-written: Prisma has no FTS5 model). External content: the index
-- reads title and body from "SearchEntry"; triggers keep it in step, including the deletes
-- a project's ON DELETE CASCADE makes. remove_diacritics 2 folds accents (cafe finds café);
-- text in scripts without spaces (CJK, Thai) is stored with U+200B between words, which
-- unicode61 treats as a separator.
CREATE VIRTUAL TABLE "SearchEntryFts" USING fts5(
    title, body,
    content='SearchEntry', content_rowid='id',
    tokenize='unicode61 remove_diacritics 2',
    prefix='3 4'
);
CREATE TRIGGER "SearchEntry_fts_insert" AFTER INSERT ON "SearchEntry" BEGIN
    INSERT INTO "SearchEntryFts" (rowid, title, body) VALUES (new."id", new."title", new."body");
END;
CREATE TRIGGER "SearchEntry_fts_delete" AFTER DELETE ON "SearchEntry" BEGIN
    INSERT INTO "SearchEntryFts" ("SearchEntryFts", rowid, title, body) VALUES ('delete', old."id", old."title", old."body");
END;
CREATE TRIGGER "SearchEntry_fts_update" AFTER UPDATE OF "title", "body" ON "SearchEntry" BEGIN
    INSERT INTO "SearchEntryFts" ("SearchEntryFts", rowid, title, body) VALUES ('delete', old."id", old."title", old."body");
    INSERT INTO "SearchEntryFts" (rowid, title, body) VALUES (new."id", new."title", new."body");
END;

-- Search reads each match's facet values (project, kind, status, date) from this index, never
-- from the rows themselves, whose bodies make them large (see lib/db/repositories/search-sqlite.ts).
CREATE INDEX "SearchEntry_facets" ON "SearchEntry" ("id", "projectId", "kind", "status", "date");
