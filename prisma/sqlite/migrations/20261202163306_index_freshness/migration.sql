-- CreateTable
CREATE TABLE "IndexFreshness" (
    "projectId" TEXT NOT NULL PRIMARY KEY,
    "takenAt" DATETIME NOT NULL,
    "record" TEXT NOT NULL,
    CONSTRAINT "IndexFreshness_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "Project" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

