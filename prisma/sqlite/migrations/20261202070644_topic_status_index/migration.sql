-- CreateIndex
CREATE INDEX "Topic_projectId_status_idx" ON "Topic"("projectId", "status");

