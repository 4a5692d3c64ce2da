-- AlterTable
ALTER TABLE "PacketRevision" ADD COLUMN     "taskTokens" INTEGER;

