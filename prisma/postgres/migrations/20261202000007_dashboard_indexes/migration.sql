-- Leads → Overview (issue 43, docs/attribution.md "Dashboard queries and their speed").
-- The dashboard's range aggregates read one covering index: (teamId, createdAt) grows into it,
-- so a lead still costs one insertion into it. The new index is built before the old one goes.
CREATE INDEX "Lead_teamId_createdAt_overview_idx" ON "Lead"("teamId", "createdAt", "channelGroup", "status", "firstContactedAt", "ownerId", "utmCampaign", "sourceId", "formId", "connectionId", "apiKeyId");

DROP INDEX "Lead_teamId_createdAt_idx";

-- The lead list's channel-group filter, newest first.
CREATE INDEX "Lead_teamId_channelGroup_seq_idx" ON "Lead"("teamId", "channelGroup", "seq");

-- "Ever reached Qualified": the team's status changes since a day, apart from its other events.
CREATE INDEX "AuditEvent_teamId_action_createdAt_idx" ON "AuditEvent"("teamId", "action", "createdAt");
