-- A connection can hold a delivery until the person confirms (docs/consent.md "Connections").
ALTER TABLE "Connection" ADD COLUMN "doubleOptInHold" BOOLEAN NOT NULL DEFAULT false;
