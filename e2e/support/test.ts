import { test as base, type BrowserContext, type Page } from "@playwright/test";
import { signIn, type TestUser } from "./fixtures";

type Fixtures = {
  /** A page in its own browser context (own cookies, clipboard allowed), signed in as `user`. */
  signInAs: (user: TestUser) => Promise<Page>;
};

export const test = base.extend<Fixtures>({
  signInAs: async ({ browser, baseURL }, use) => {
    const contexts: BrowserContext[] = [];
    await use(async (user) => {
      const context = await browser.newContext({ baseURL, permissions: ["clipboard-read", "clipboard-write"] });
      contexts.push(context);
      const page = await context.newPage();
      await signIn(page, user);
      return page;
    });
    await Promise.all(contexts.map((context) => context.close()));
  },
});

export { expect } from "@playwright/test";
