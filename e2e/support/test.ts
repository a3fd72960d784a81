import { test as base, type BrowserContext, type Page } from "@playwright/test";
import { signIn, signInWithSession, type TestUser } from "./fixtures";

type Fixtures = {
  /**
   * A page in its own browser context (own cookies, clipboard allowed), signed in as `user`
   * with the session cookie the server issues (fixtures.ts signInWithSession), or through the
   * sign-in form with `{ form: true }`.
   */
  signInAs: (user: TestUser, options?: { form?: boolean }) => Promise<Page>;
};

export const test = base.extend<Fixtures>({
  signInAs: async ({ browser, baseURL }, use) => {
    const contexts: BrowserContext[] = [];
    await use(async (user, options = {}) => {
      const context = await browser.newContext({ baseURL, permissions: ["clipboard-read", "clipboard-write"] });
      contexts.push(context);
      const page = await context.newPage();
      if (options.form) await signIn(page, user);
      else await signInWithSession(context, page, user);
      return page;
    });
    await Promise.all(contexts.map((context) => context.close()));
  },
});

export { expect } from "@playwright/test";
