-- CreateTable
CREATE TABLE "SearchEntry" (
    "id" SERIAL NOT NULL,
    "projectId" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "ref" TEXT NOT NULL,
    "title" TEXT NOT NULL,
    "body" TEXT NOT NULL,
    "status" TEXT,
    "date" TEXT,
    "href" TEXT NOT NULL,
    "hash" TEXT NOT NULL,

    CONSTRAINT "SearchEntry_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "SearchSource" (
    "projectId" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "fingerprint" TEXT NOT NULL,

    CONSTRAINT "SearchSource_pkey" PRIMARY KEY ("projectId","key")
);

-- CreateTable
CREATE TABLE "SavedView" (
    "id" TEXT NOT NULL,
    "projectId" TEXT NOT NULL,
    "surface" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "query" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "SavedView_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "SearchEntry_kind_idx" ON "SearchEntry"("kind");

-- CreateIndex
CREATE UNIQUE INDEX "SearchEntry_projectId_kind_ref_key" ON "SearchEntry"("projectId", "kind", "ref");

-- CreateIndex
CREATE UNIQUE INDEX "SavedView_projectId_surface_name_key" ON "SavedView"("projectId", "surface", "name");

-- AddForeignKey
ALTER TABLE "SearchEntry" ADD CONSTRAINT "SearchEntry_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "Project"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "SearchSource" ADD CONSTRAINT "SearchSource_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "Project"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "SavedView" ADD CONSTRAINT "SavedView_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "Project"("id") ON DELETE CASCADE ON UPDATE CASCADE;


-- Full-text index (hand-written: Prisma has no tsvector model). "tsv" is written with each
-- row from the words the Workbench splits out (letters and digits; see lib/search/text.ts),
-- not generated from the raw text: PostgreSQL's parser would keep "lib/search/text.ts" or
-- "3.5" as single tokens that no typed word matches. The "workbench" configuration is
-- "simple" (no stemming: indexed text is in many languages) with unaccent first, so cafe
-- finds café. Title words weigh more than body words (A over B).
CREATE EXTENSION IF NOT EXISTS unaccent;
DO $$
BEGIN
    IF NOT EXISTS (SELECT 1 FROM pg_ts_config WHERE cfgname = 'workbench') THEN
        CREATE TEXT SEARCH CONFIGURATION workbench (COPY = simple);
        ALTER TEXT SEARCH CONFIGURATION workbench
            ALTER MAPPING FOR word, numword, hword, numhword, hword_part, hword_numpart WITH unaccent, simple;
    END IF;
END $$;
ALTER TABLE "SearchEntry" ADD COLUMN "tsv" tsvector NOT NULL DEFAULT ''::tsvector;
CREATE INDEX "SearchEntry_tsv_idx" ON "SearchEntry" USING GIN ("tsv");
