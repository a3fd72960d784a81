import { createRequire } from "node:module";
import AxeBuilder from "@axe-core/playwright";
import { expect, type Page } from "@playwright/test";

// The team's rule (docs/team-settings.md): every page passes axe-core's WCAG
// 2.2 A/AA rules with no serious or critical violation, on a desktop and on a phone, dialogs
// included; at 390 px no page scrolls sideways. e2e/ui/accessibility.spec.ts checks every
// page with checkPage; a feature's own spec may check its pages too (connections.spec.ts).

const WCAG_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"];

// axe-core's source as @axe-core/playwright injects it (its own dependency, 1.5 MB).
const AXE_SOURCE = (createRequire(createRequire(import.meta.url).resolve("@axe-core/playwright"))("axe-core") as { source: string }).source;

/**
 * Puts axe into each frame of the page's current document that does not have it yet.
 * AxeBuilder evaluates its whole source twice in every analyze() (0.4–0.7 s each on the
 * shared machine, measured, against 0.2–0.5 s for the run itself); a document keeps it, so
 * its second width and any re-check after settling only run it.
 */
async function injectAxe(page: Page): Promise<void> {
  for (const frame of page.frames()) {
    if (await frame.evaluate(() => typeof (window as { axe?: unknown }).axe === "object")) continue;
    await frame.evaluate(AXE_SOURCE);
  }
}

/**
 * axe's serious and critical violations of the WCAG rules on the page as it is now (or only
 * in `include`), each with its rule, impact, help, targets and markup. Legacy mode runs axe
 * in the page itself (the pages have no frames) instead of finishing each run in a new blank
 * page, and only violations are collected: together a third of the default's time. axe is
 * injected once per document (injectAxe); AxeBuilder's own injection is then a no-op.
 */
export async function blockingViolations(page: Page, include?: string): Promise<string[]> {
  await injectAxe(page);
  const axe = new AxeBuilder({ page, axeSource: "void 0" })
    .setLegacyMode(true)
    .options({ resultTypes: ["violations"] })
    .withTags(WCAG_TAGS);
  if (include) axe.include(include);
  const { violations } = await axe.analyze();
  return violations
    .filter((violation) => violation.impact === "serious" || violation.impact === "critical")
    .map((violation) => {
      const nodes = violation.nodes.map((node) => `${node.target.join(" ")} ${node.html.slice(0, 120)}`);
      return `${violation.id} (${violation.impact}): ${violation.help} at ${nodes.join(" | ")}`;
    });
}

/** Runs blockingViolations on the page and fails softly with what it finds; on a phone, also fails when the page scrolls sideways. */
export async function checkPage(page: Page, name: string, include?: string): Promise<void> {
  // A button that was just re-enabled fades back to its colours (a CSS transition): axe
  // measuring contrast mid-fade reports a violation no user sees once it has settled.
  await page.waitForFunction(() =>
    document.getAnimations().every((animation) => !(animation instanceof CSSTransition) || animation.playState !== "running"),
  );
  // A page still settling (a transition's state, a re-render after navigation on a loaded
  // machine) is measured again a moment later; what is reported is the settled page, and a
  // violation seen only while settling is printed, so that it can still be looked into.
  let blocking = await blockingViolations(page, include);
  for (let attempt = 0; blocking.length && attempt < 2; attempt++) {
    console.warn(`axe on ${name}, while the page settled: ${blocking.join(" || ")}`);
    await page.waitForTimeout(500);
    blocking = await blockingViolations(page, include);
  }
  expect.soft(blocking, `axe on ${name} (${page.url()})`).toEqual([]);
  // Not among the WCAG-tagged rules (axe's landmark-one-main is a best practice), but screen
  // readers jump to the main landmark: every page has exactly one.
  if (!include) await expect.soft(page.getByRole("main"), `${name} has one main landmark`).toHaveCount(1);

  const viewport = page.viewportSize();
  if (viewport && viewport.width < 640) {
    const { scrollWidth, widest } = await page.evaluate(sidewaysOverflow);
    expect
      .soft(scrollWidth, `${name} scrolls sideways at ${viewport.width} px; elements past the edge: ${widest.join(" | ")}`)
      .toBeLessThanOrEqual(viewport.width);
  }
}

/** The page's scroll width and, to find the culprit, the innermost elements whose right edge is past the viewport. */
function sidewaysOverflow(): { scrollWidth: number; widest: string[] } {
  const past = (element: Element) => element.getBoundingClientRect().right > window.innerWidth + 1;
  const widest = Array.from(document.body.querySelectorAll("*"))
    .filter((element) => past(element) && !Array.from(element.children).some(past))
    .slice(0, 5)
    .map(
      (element) =>
        `${element.tagName.toLowerCase()}.${Array.from(element.classList).join(".")} "${(element.textContent ?? "").slice(0, 40)}"`,
    );
  return { scrollWidth: document.documentElement.scrollWidth, widest };
}

/**
 * checkPage at each of the two sizes in turn, in one page load: the page is resized (media
 * queries, layout and the page's own resize handling run as for a user turning a phone), each
 * result named with its size, and left at the size it had. A state reached once is checked at
 * both widths, instead of seeding, signing in and walking to it once per width.
 */
export async function checkAtBothWidths(page: Page, name: string, include?: string): Promise<void> {
  const before = page.viewportSize();
  for (const viewport of VIEWPORTS) {
    await page.setViewportSize({ width: viewport.width, height: viewport.height });
    await checkPage(page, `${name} (${viewport.width} px)`, include);
  }
  if (before) await page.setViewportSize(before);
}

/** The two sizes every page is checked at. */
export const VIEWPORTS = [
  { name: "desktop", width: 1280, height: 800 },
  { name: "phone", width: 390, height: 844 },
] as const;
