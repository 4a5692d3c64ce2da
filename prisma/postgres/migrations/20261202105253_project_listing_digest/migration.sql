-- AlterTable
ALTER TABLE "Project" ADD COLUMN     "listingDigest" TEXT;

