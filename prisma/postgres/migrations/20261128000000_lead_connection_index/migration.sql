-- The lead list's filter by connection, newest first by seq (docs/leads.md "Which filters use an index").
CREATE INDEX "Lead_teamId_connectionId_seq_idx" ON "Lead"("teamId", "connectionId", "seq");
