-- CreateTable
CREATE TABLE "SetupStep" (
    "name" TEXT NOT NULL,
    "doneAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "SetupStep_pkey" PRIMARY KEY ("name")
);
