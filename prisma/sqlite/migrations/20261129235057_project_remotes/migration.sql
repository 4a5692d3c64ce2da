-- AlterTable
ALTER TABLE "Project" ADD COLUMN "lastFetchError" TEXT;
ALTER TABLE "Project" ADD COLUMN "lastFetchedAt" DATETIME;
ALTER TABLE "Project" ADD COLUMN "remoteBranch" TEXT;
ALTER TABLE "Project" ADD COLUMN "remoteUrl" TEXT;

