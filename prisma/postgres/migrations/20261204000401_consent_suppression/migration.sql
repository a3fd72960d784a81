-- The suppression list (issue 46, step 3, docs/consent.md): the address of a person who
-- withdrew consent or was erased, kept only as a keyed hash per team.

-- CreateTable
CREATE TABLE "ConsentSuppression" (
    "teamId" TEXT NOT NULL,
    "emailHash" TEXT NOT NULL,
    "reason" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "ConsentSuppression_pkey" PRIMARY KEY ("teamId","emailHash")
);

-- AddForeignKey
ALTER TABLE "ConsentSuppression" ADD CONSTRAINT "ConsentSuppression_teamId_fkey" FOREIGN KEY ("teamId") REFERENCES "Team"("id") ON DELETE CASCADE ON UPDATE CASCADE;
