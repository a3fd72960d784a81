-- A lead's channel group, of its last touch and of its first (issue 43, docs/attribution.md):
-- derived from its fields by Google Analytics 4's default channel-group rules at every write.
-- Leads stored before this migration are given theirs once, on the next start
-- (lib/setup/derive-attribution.ts), in batches: until then they read "Direct".
ALTER TABLE "Lead" ADD COLUMN "channelGroup" TEXT NOT NULL DEFAULT 'Direct';

-- AlterTable
ALTER TABLE "Lead" ADD COLUMN "firstChannelGroup" TEXT NOT NULL DEFAULT 'Direct';
