-- AlterTable
ALTER TABLE "Packet" ADD COLUMN     "approvedNumber" INTEGER,
ADD COLUMN     "reviewStatus" TEXT NOT NULL DEFAULT 'draft';

-- CreateTable
CREATE TABLE "PacketDoc" (
    "packetId" TEXT NOT NULL,
    "state" BYTEA NOT NULL,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "PacketDoc_pkey" PRIMARY KEY ("packetId")
);

-- CreateTable
CREATE TABLE "PacketComment" (
    "id" TEXT NOT NULL,
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
    "resolvedAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "PacketComment_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "PacketReviewEvent" (
    "id" TEXT NOT NULL,
    "packetId" TEXT NOT NULL,
    "fromStatus" TEXT NOT NULL,
    "toStatus" TEXT NOT NULL,
    "actor" TEXT NOT NULL,
    "revision" INTEGER NOT NULL,
    "note" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "PacketReviewEvent_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "PacketSnapshot" (
    "id" TEXT NOT NULL,
    "packetId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "markdown" TEXT NOT NULL,
    "author" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "PacketSnapshot_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "PacketComment_packetId_threadId_idx" ON "PacketComment"("packetId", "threadId");

-- CreateIndex
CREATE INDEX "PacketReviewEvent_packetId_createdAt_idx" ON "PacketReviewEvent"("packetId", "createdAt");

-- CreateIndex
CREATE INDEX "PacketSnapshot_packetId_createdAt_idx" ON "PacketSnapshot"("packetId", "createdAt");

-- AddForeignKey
ALTER TABLE "PacketDoc" ADD CONSTRAINT "PacketDoc_packetId_fkey" FOREIGN KEY ("packetId") REFERENCES "Packet"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "PacketComment" ADD CONSTRAINT "PacketComment_packetId_fkey" FOREIGN KEY ("packetId") REFERENCES "Packet"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "PacketReviewEvent" ADD CONSTRAINT "PacketReviewEvent_packetId_fkey" FOREIGN KEY ("packetId") REFERENCES "Packet"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "PacketSnapshot" ADD CONSTRAINT "PacketSnapshot_packetId_fkey" FOREIGN KEY ("packetId") REFERENCES "Packet"("id") ON DELETE CASCADE ON UPDATE CASCADE;

