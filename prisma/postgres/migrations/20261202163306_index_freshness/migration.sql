-- CreateTable
CREATE TABLE "IndexFreshness" (
    "projectId" TEXT NOT NULL,
    "takenAt" TIMESTAMP(3) NOT NULL,
    "record" TEXT NOT NULL,

    CONSTRAINT "IndexFreshness_pkey" PRIMARY KEY ("projectId")
);

-- AddForeignKey
ALTER TABLE "IndexFreshness" ADD CONSTRAINT "IndexFreshness_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "Project"("id") ON DELETE CASCADE ON UPDATE CASCADE;

