-- AlterTable
ALTER TABLE "PacketComment" ADD COLUMN "anchorEnd" TEXT;
ALTER TABLE "PacketComment" ADD COLUMN "anchorStart" TEXT;

