-- CreateTable
CREATE TABLE "DeepRun" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "projectId" TEXT NOT NULL,
    "relPath" TEXT NOT NULL,
    "loopType" TEXT NOT NULL,
    "specFolder" TEXT NOT NULL,
    "archived" BOOLEAN NOT NULL DEFAULT false,
    "scope" TEXT,
    "status" TEXT,
    "iterations" INTEGER NOT NULL DEFAULT 0,
    "decision" TEXT,
    "stopReason" TEXT,
    "findings" INTEGER,
    "lastEventAt" TEXT,
    "summaryJson" TEXT NOT NULL DEFAULT '{}',
    CONSTRAINT "DeepRun_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "Project" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE INDEX "DeepRun_projectId_idx" ON "DeepRun"("projectId");

-- CreateIndex
CREATE UNIQUE INDEX "DeepRun_projectId_relPath_loopType_key" ON "DeepRun"("projectId", "relPath", "loopType");

