-- AlterTable
ALTER TABLE "PacketComment" ADD COLUMN     "anchorEnd" TEXT,
ADD COLUMN     "anchorStart" TEXT;

