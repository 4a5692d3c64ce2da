-- CreateTable
CREATE TABLE "Packet" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "projectId" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "title" TEXT NOT NULL,
    "topicSlug" TEXT,
    "archived" BOOLEAN NOT NULL DEFAULT false,
    "headNumber" INTEGER NOT NULL DEFAULT 0,
    "emittedNumber" INTEGER,
    "emittedAt" DATETIME,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "Packet_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "Project" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "PacketRevision" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "packetId" TEXT NOT NULL,
    "number" INTEGER NOT NULL,
    "markdown" TEXT NOT NULL,
    "tokenEstimate" INTEGER NOT NULL,
    "completeness" TEXT NOT NULL,
    "blockCount" INTEGER NOT NULL,
    "warnCount" INTEGER NOT NULL,
    "author" TEXT,
    "note" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "PacketRevision_packetId_fkey" FOREIGN KEY ("packetId") REFERENCES "Packet" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE INDEX "Packet_projectId_archived_updatedAt_idx" ON "Packet"("projectId", "archived", "updatedAt");

-- CreateIndex
CREATE UNIQUE INDEX "PacketRevision_packetId_number_key" ON "PacketRevision"("packetId", "number");

