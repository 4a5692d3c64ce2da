-- CreateTable
CREATE TABLE "Project" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "name" TEXT NOT NULL,
    "rootPath" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    "lastIndexedAt" DATETIME,
    "configJson" TEXT NOT NULL DEFAULT '{}',
    "gitFingerprint" TEXT
);

-- CreateTable
CREATE TABLE "IndexJob" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "projectId" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'queued',
    "phase" TEXT NOT NULL DEFAULT 'queued',
    "filesDone" INTEGER NOT NULL DEFAULT 0,
    "filesTotal" INTEGER NOT NULL DEFAULT 0,
    "error" TEXT,
    "statsJson" TEXT NOT NULL DEFAULT '{}',
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "startedAt" DATETIME,
    "finishedAt" DATETIME,
    CONSTRAINT "IndexJob_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "Project" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "SourceFile" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "projectId" TEXT NOT NULL,
    "relPath" TEXT NOT NULL,
    "size" INTEGER NOT NULL,
    "mtimeMs" REAL NOT NULL,
    "area" TEXT NOT NULL,
    CONSTRAINT "SourceFile_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "Project" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "IndexWarning" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "projectId" TEXT NOT NULL,
    "relPath" TEXT NOT NULL,
    "field" TEXT,
    "code" TEXT NOT NULL,
    "message" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "IndexWarning_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "Project" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "Topic" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "projectId" TEXT NOT NULL,
    "slug" TEXT NOT NULL,
    "title" TEXT,
    "status" TEXT,
    "type" TEXT,
    "updatedAt" TEXT,
    "sources" TEXT NOT NULL,
    CONSTRAINT "Topic_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "Project" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "TopicSource" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "projectId" TEXT NOT NULL,
    "source" TEXT NOT NULL,
    "slug" TEXT NOT NULL,
    "title" TEXT,
    "status" TEXT,
    "type" TEXT,
    "phase" TEXT,
    "createdAt" TEXT,
    "updatedAt" TEXT,
    "relPath" TEXT NOT NULL,
    "fromManifest" BOOLEAN NOT NULL DEFAULT false,
    "onDisk" BOOLEAN NOT NULL DEFAULT true,
    "legacy" BOOLEAN NOT NULL DEFAULT false,
    "listed" BOOLEAN NOT NULL DEFAULT true,
    "detailsJson" TEXT NOT NULL DEFAULT '{}',
    CONSTRAINT "TopicSource_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "Project" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "Document" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "projectId" TEXT NOT NULL,
    "relPath" TEXT NOT NULL,
    "area" TEXT NOT NULL,
    "source" TEXT,
    "slug" TEXT,
    "title" TEXT,
    "content" TEXT NOT NULL,
    CONSTRAINT "Document_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "Project" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "GitBranch" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "projectId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "lastCommitDate" TEXT NOT NULL,
    "recentJson" TEXT NOT NULL DEFAULT '[]',
    CONSTRAINT "GitBranch_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "Project" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "GitCommit" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "projectId" TEXT NOT NULL,
    "hash" TEXT NOT NULL,
    "ord" INTEGER NOT NULL,
    "subject" TEXT NOT NULL,
    "message" TEXT NOT NULL,
    "date" TEXT NOT NULL,
    CONSTRAINT "GitCommit_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "Project" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE UNIQUE INDEX "Project_rootPath_key" ON "Project"("rootPath");

-- CreateIndex
CREATE INDEX "IndexJob_projectId_createdAt_idx" ON "IndexJob"("projectId", "createdAt");

-- CreateIndex
CREATE UNIQUE INDEX "SourceFile_projectId_relPath_key" ON "SourceFile"("projectId", "relPath");

-- CreateIndex
CREATE INDEX "IndexWarning_projectId_relPath_idx" ON "IndexWarning"("projectId", "relPath");

-- CreateIndex
CREATE INDEX "Topic_projectId_updatedAt_idx" ON "Topic"("projectId", "updatedAt");

-- CreateIndex
CREATE UNIQUE INDEX "Topic_projectId_slug_key" ON "Topic"("projectId", "slug");

-- CreateIndex
CREATE INDEX "TopicSource_projectId_slug_idx" ON "TopicSource"("projectId", "slug");

-- CreateIndex
CREATE UNIQUE INDEX "TopicSource_projectId_source_slug_key" ON "TopicSource"("projectId", "source", "slug");

-- CreateIndex
CREATE INDEX "Document_projectId_area_idx" ON "Document"("projectId", "area");

-- CreateIndex
CREATE UNIQUE INDEX "Document_projectId_relPath_key" ON "Document"("projectId", "relPath");

-- CreateIndex
CREATE UNIQUE INDEX "GitBranch_projectId_name_key" ON "GitBranch"("projectId", "name");

-- CreateIndex
CREATE INDEX "GitCommit_projectId_ord_idx" ON "GitCommit"("projectId", "ord");

-- CreateIndex
CREATE UNIQUE INDEX "GitCommit_projectId_hash_key" ON "GitCommit"("projectId", "hash");

