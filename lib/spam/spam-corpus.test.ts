import assert from "node:assert/strict";
import { test } from "node:test";
import { confusionMatrix, REAL_LEADS, scoreCorpus, SPAM_SUBMISSIONS } from "./spam-corpus.fixtures";

// Issue 42's measure: the corpus of scripts/build-spam-corpus.ts at the default settings.
test("the corpus: no real lead quarantined, at least 95 % of spam quarantined", () => {
  assert.ok(REAL_LEADS.length >= 2000);
  assert.ok(SPAM_SUBMISSIONS.length >= 500);
  const score = scoreCorpus();
  console.log(confusionMatrix(score));
  assert.equal(score.real.quarantined, 0);
  assert.ok(score.spam.quarantined / score.spam.total >= 0.95, `${score.spam.quarantined} of ${score.spam.total} spam quarantined`);
});
