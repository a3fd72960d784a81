-- A quarantined submission keeps the consent evidence the intake derived, for "Not spam" (docs/consent.md).
ALTER TABLE "QuarantinedLead" ADD COLUMN "consent" JSONB;
