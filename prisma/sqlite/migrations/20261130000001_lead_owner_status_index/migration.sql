-- One owner's leads of one status, newest first (issue 28: "My leads" with a status view, and the
-- status views' counts under an owner filter).
CREATE INDEX "Lead_teamId_ownerId_status_seq_idx" ON "Lead"("teamId", "ownerId", "status", "seq");
