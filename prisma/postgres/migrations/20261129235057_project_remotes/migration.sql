-- AlterTable
ALTER TABLE "Project" ADD COLUMN     "lastFetchError" TEXT,
ADD COLUMN     "lastFetchedAt" TIMESTAMP(3),
ADD COLUMN     "remoteBranch" TEXT,
ADD COLUMN     "remoteUrl" TEXT;

