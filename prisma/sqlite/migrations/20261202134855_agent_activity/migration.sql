-- AlterTable
ALTER TABLE "PacketRevision" ADD COLUMN "agentName" TEXT;
ALTER TABLE "PacketRevision" ADD COLUMN "agentTokenId" TEXT;

-- AlterTable
ALTER TABLE "PacketReviewEvent" ADD COLUMN "agentName" TEXT;
ALTER TABLE "PacketReviewEvent" ADD COLUMN "agentTokenId" TEXT;

-- CreateTable
CREATE TABLE "AgentActivity" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "projectId" TEXT NOT NULL,
    "packetId" TEXT,
    "tokenId" TEXT,
    "agentName" TEXT NOT NULL,
    "actor" TEXT NOT NULL,
    "action" TEXT NOT NULL,
    "revision" INTEGER,
    "detail" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "AgentActivity_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "Project" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE INDEX "AgentActivity_projectId_createdAt_idx" ON "AgentActivity"("projectId", "createdAt");

