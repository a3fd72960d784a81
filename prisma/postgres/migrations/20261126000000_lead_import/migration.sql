-- CSV imports of leads (docs/import.md): the Import table, its refused rows, and the
-- import that created each lead (its undo and the lead list's filter).

-- AlterTable
ALTER TABLE "Lead" ADD COLUMN     "importId" TEXT;

-- CreateTable
CREATE TABLE "Import" (
    "id" TEXT NOT NULL,
    "teamId" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'draft',
    "activeTeamId" TEXT,
    "fileName" TEXT NOT NULL,
    "filePath" TEXT NOT NULL,
    "fileBytes" INTEGER NOT NULL,
    "encoding" TEXT NOT NULL,
    "delimiter" TEXT NOT NULL,
    "headers" JSONB NOT NULL,
    "headerSignature" TEXT NOT NULL,
    "mapping" JSONB,
    "duplicates" TEXT NOT NULL DEFAULT 'skip',
    "sourceId" TEXT,
    "totalRows" INTEGER NOT NULL,
    "cursor" INTEGER NOT NULL DEFAULT 0,
    "createdCount" INTEGER NOT NULL DEFAULT 0,
    "updatedCount" INTEGER NOT NULL DEFAULT 0,
    "skippedCount" INTEGER NOT NULL DEFAULT 0,
    "refusedCount" INTEGER NOT NULL DEFAULT 0,
    "error" TEXT,
    "createdById" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "startedAt" TIMESTAMP(3),
    "finishedAt" TIMESTAMP(3),
    "undoneAt" TIMESTAMP(3),

    CONSTRAINT "Import_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ImportRefusedRow" (
    "id" SERIAL NOT NULL,
    "importId" TEXT NOT NULL,
    "row" INTEGER NOT NULL,
    "cells" JSONB NOT NULL,
    "reason" TEXT NOT NULL,

    CONSTRAINT "ImportRefusedRow_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "Import_activeTeamId_key" ON "Import"("activeTeamId");

-- CreateIndex
CREATE INDEX "Import_teamId_createdAt_idx" ON "Import"("teamId", "createdAt");

-- CreateIndex
CREATE INDEX "Import_teamId_headerSignature_idx" ON "Import"("teamId", "headerSignature");

-- CreateIndex
CREATE INDEX "ImportRefusedRow_importId_row_idx" ON "ImportRefusedRow"("importId", "row");

-- CreateIndex
CREATE INDEX "Lead_teamId_importId_seq_idx" ON "Lead"("teamId", "importId", "seq");

-- AddForeignKey
ALTER TABLE "Import" ADD CONSTRAINT "Import_teamId_fkey" FOREIGN KEY ("teamId") REFERENCES "Team"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ImportRefusedRow" ADD CONSTRAINT "ImportRefusedRow_importId_fkey" FOREIGN KEY ("importId") REFERENCES "Import"("id") ON DELETE CASCADE ON UPDATE CASCADE;
