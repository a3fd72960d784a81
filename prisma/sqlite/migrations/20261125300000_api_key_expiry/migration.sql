-- AlterTable
ALTER TABLE "ApiKey" ADD COLUMN "expiresAt" DATETIME;
