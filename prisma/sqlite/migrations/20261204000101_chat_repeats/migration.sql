-- Chat destinations post a repeat submission of an existing lead (issue 44, docs/notifications.md "What is posted"): on by default.
ALTER TABLE "ChatDestination" ADD COLUMN "postRepeats" BOOLEAN NOT NULL DEFAULT true;
