-- CreateTable
CREATE TABLE "Packet" (
    "id" TEXT NOT NULL,
    "projectId" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "title" TEXT NOT NULL,
    "topicSlug" TEXT,
    "archived" BOOLEAN NOT NULL DEFAULT false,
    "headNumber" INTEGER NOT NULL DEFAULT 0,
    "emittedNumber" INTEGER,
    "emittedAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Packet_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "PacketRevision" (
    "id" TEXT NOT NULL,
    "packetId" TEXT NOT NULL,
    "number" INTEGER NOT NULL,
    "markdown" TEXT NOT NULL,
    "tokenEstimate" INTEGER NOT NULL,
    "completeness" TEXT NOT NULL,
    "blockCount" INTEGER NOT NULL,
    "warnCount" INTEGER NOT NULL,
    "author" TEXT,
    "note" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "PacketRevision_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "Packet_projectId_archived_updatedAt_idx" ON "Packet"("projectId", "archived", "updatedAt");

-- CreateIndex
CREATE UNIQUE INDEX "PacketRevision_packetId_number_key" ON "PacketRevision"("packetId", "number");

-- AddForeignKey
ALTER TABLE "Packet" ADD CONSTRAINT "Packet_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "Project"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "PacketRevision" ADD CONSTRAINT "PacketRevision_packetId_fkey" FOREIGN KEY ("packetId") REFERENCES "Packet"("id") ON DELETE CASCADE ON UPDATE CASCADE;

