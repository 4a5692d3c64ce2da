-- CreateTable
CREATE TABLE "PacketDoc" (
    "packetId" TEXT NOT NULL PRIMARY KEY,
    "state" BLOB NOT NULL,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "PacketDoc_packetId_fkey" FOREIGN KEY ("packetId") REFERENCES "Packet" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "PacketComment" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "packetId" TEXT NOT NULL,
    "threadId" TEXT NOT NULL,
    "section" TEXT,
    "quote" TEXT,
    "anchorFrom" INTEGER,
    "anchorTo" INTEGER,
    "body" TEXT NOT NULL,
    "author" TEXT NOT NULL,
    "resolved" BOOLEAN NOT NULL DEFAULT false,
    "resolvedBy" TEXT,
    "resolvedAt" DATETIME,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "PacketComment_packetId_fkey" FOREIGN KEY ("packetId") REFERENCES "Packet" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "PacketReviewEvent" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "packetId" TEXT NOT NULL,
    "fromStatus" TEXT NOT NULL,
    "toStatus" TEXT NOT NULL,
    "actor" TEXT NOT NULL,
    "revision" INTEGER NOT NULL,
    "note" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "PacketReviewEvent_packetId_fkey" FOREIGN KEY ("packetId") REFERENCES "Packet" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "PacketSnapshot" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "packetId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "markdown" TEXT NOT NULL,
    "author" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "PacketSnapshot_packetId_fkey" FOREIGN KEY ("packetId") REFERENCES "Packet" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_Packet" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "projectId" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "title" TEXT NOT NULL,
    "topicSlug" TEXT,
    "archived" BOOLEAN NOT NULL DEFAULT false,
    "headNumber" INTEGER NOT NULL DEFAULT 0,
    "emittedNumber" INTEGER,
    "emittedAt" DATETIME,
    "reviewStatus" TEXT NOT NULL DEFAULT 'draft',
    "approvedNumber" INTEGER,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "Packet_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "Project" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
INSERT INTO "new_Packet" ("archived", "createdAt", "emittedAt", "emittedNumber", "headNumber", "id", "kind", "projectId", "title", "topicSlug", "updatedAt") SELECT "archived", "createdAt", "emittedAt", "emittedNumber", "headNumber", "id", "kind", "projectId", "title", "topicSlug", "updatedAt" FROM "Packet";
DROP TABLE "Packet";
ALTER TABLE "new_Packet" RENAME TO "Packet";
CREATE INDEX "Packet_projectId_archived_updatedAt_idx" ON "Packet"("projectId", "archived", "updatedAt");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

-- CreateIndex
CREATE INDEX "PacketComment_packetId_threadId_idx" ON "PacketComment"("packetId", "threadId");

-- CreateIndex
CREATE INDEX "PacketReviewEvent_packetId_createdAt_idx" ON "PacketReviewEvent"("packetId", "createdAt");

-- CreateIndex
CREATE INDEX "PacketSnapshot_packetId_createdAt_idx" ON "PacketSnapshot"("packetId", "createdAt");

