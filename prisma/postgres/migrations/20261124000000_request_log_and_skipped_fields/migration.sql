-- AlterTable
ALTER TABLE "Lead" ADD COLUMN     "skippedMobileNo" TEXT,
ADD COLUMN     "skippedPhone" TEXT,
ADD COLUMN     "skippedWebsite" TEXT;

-- CreateTable
CREATE TABLE "ApiRequest" (
    "id" SERIAL NOT NULL,
    "teamId" TEXT NOT NULL,
    "apiKeyId" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "status" INTEGER NOT NULL,
    "leadId" TEXT,
    "error" TEXT,
    "ip" TEXT,
    "encoding" TEXT NOT NULL,

    CONSTRAINT "ApiRequest_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "ApiRequest_apiKeyId_id_idx" ON "ApiRequest"("apiKeyId", "id");

-- CreateIndex
CREATE INDEX "ApiRequest_teamId_id_idx" ON "ApiRequest"("teamId", "id");
