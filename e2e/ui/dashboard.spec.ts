import { readFileSync } from "node:fs";
import type { Page } from "@playwright/test";
import { createApiKey } from "../../lib/api-keys/api-key-changes";
import { db } from "../../lib/db/client";
import { checkAtBothWidths } from "../support/accessibility-check";
import { authHeaders, CREATE_LEAD, newTeam, newUser } from "../support/fixtures";
import { saveScreenshot } from "../support/screenshots";
import { expect, test } from "../support/test";

// Leads → Overview (issue 43; docs/attribution.md "The dashboard"): leads from three channel
// groups, one a month old and one contacted by its owner, and a spam post; a member opens the
// overview from the lead list, reads its numbers, switches range and breakdown, follows a bar
// and a row into the filtered lead list, downloads a table's CSV, and every state passes axe.

const DAY = 24 * 60 * 60 * 1000;
const isoDay = (date: Date) => date.toISOString().slice(0, 10);

const section = (page: Page, name: string) => page.getByRole("region", { name });
const table = (page: Page, name: RegExp) => page.getByRole("table", { name });
/** The cells of the table row whose header is `name`. */
const rowCells = (page: Page, tableName: RegExp, name: string) =>
  table(page, tableName)
    .getByRole("row")
    .filter({ has: page.getByRole("rowheader", { name, exact: true }) })
    .getByRole("cell");

test("a member reads Leads → Overview, switches its range and breakdown, follows a bar and a row to the lead list, downloads a CSV", async ({
  signInAs,
  request,
}) => {
  const team = await newTeam();
  const ada = await newUser({ team, role: "admin", name: "Ada Owner" });
  const member = await newUser({ team, role: "member", name: "Ben Member" });
  const key = await createApiKey({ teamId: team.id, description: "Landing page" });
  const post = async (data: Record<string, string>) => {
    const response = await request.post(CREATE_LEAD, { headers: authHeaders(key), data });
    expect(response.status(), await response.text()).toBe(201);
    return (await response.json()).lead_id as string;
  };
  const paid = { utm_source: "google", utm_medium: "cpc", utm_campaign: "winter-sale" };
  const email = { utm_source: "newsletter", utm_medium: "email", utm_campaign: "newsletter-dec" };
  const paidIds = [
    await post({ name: "Paid One", ...paid }),
    await post({ name: "Paid Two", ...paid }),
    await post({ name: "Paid Old", ...paid }),
  ];
  const emailIds = [
    await post({ name: "Mail One", ...email }),
    await post({ name: "Mail Two", ...email }),
    await post({ name: "Mail Before", ...email }),
  ];
  const direct = await post({ name: "Direct Visitor" });
  const stored = await db().lead.findMany({ where: { teamId: team.id }, select: { id: true, channelGroup: true } });
  expect(Object.fromEntries(stored.map((row) => [row.id, row.channelGroup]))).toEqual({
    ...Object.fromEntries(paidIds.map((id) => [id, "Paid Search"])),
    ...Object.fromEntries(emailIds.map((id) => [id, "Email"])),
    [direct]: "Direct",
  });
  // "Paid Old" ten days ago: in the last 30 days, not the last 7. "Mail Before" forty days
  // ago: in the 30 days before the last 30. "Paid One": Ada's, contacted after 30 minutes (a
  // median read from 5 % buckets: the lower bound of the one holding 30 minutes, 29.25: "29 min").
  const now = Date.now();
  await db().lead.update({ where: { id: paidIds[2]! }, data: { createdAt: new Date(now - 10 * DAY) } });
  await db().lead.update({ where: { id: emailIds[2]! }, data: { createdAt: new Date(now - 40 * DAY) } });
  const paidOne = await db().lead.findUniqueOrThrow({ where: { id: paidIds[0]! } });
  await db().lead.update({
    where: { id: paidIds[0]! },
    data: {
      ownerId: ada.id,
      assignedAt: paidOne.createdAt,
      status: "contacted",
      firstContactedAt: new Date(paidOne.createdAt.getTime() + 30 * 60_000),
    },
  });
  // A spam post through a key that runs the spam checks: set aside, never a lead.
  const checked = await createApiKey({ teamId: team.id, description: "Spam-checked site" });
  await db().apiKey.update({ where: { id: checked.keyId }, data: { spamChecks: true } });
  const spam = await request.post(CREATE_LEAD, {
    headers: authHeaders(checked),
    data: { name: "Best SEO http://seo-offer.example/now", email: "offer@mailinator.com" },
  });
  expect(spam.status()).toBe(201);

  const today = isoDay(new Date());
  const page = await signInAs(member);
  await page.goto(`/t/${team.slug}/leads`);
  await page.getByRole("link", { name: "Overview", exact: true }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Overview" })).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`/t/${team.slug}/leads/overview$`));

  await test.step("the last 30 days against the 30 before", async () => {
    await expect(page.getByRole("navigation", { name: "Date range" }).getByRole("link", { name: "Last 30 days" })).toHaveAttribute(
      "aria-current",
      "page",
    );
    await expect(section(page, "Leads over time")).toContainText("6 leads in this period; 1 lead in the period before (+500%).");
    const chart = page.getByRole("img", { name: /^Leads per day by channel group/ });
    await expect(chart).toBeVisible();
    await expect(chart).toHaveAccessibleDescription(/Paid Search 3, Email 2, Direct 1/);
    await expect(rowCells(page, /^Leads per channel group/, "Paid Search")).toHaveText(["3", "0", "new"]);
    await expect(rowCells(page, /^Leads per channel group/, "Email")).toHaveText(["2", "1", "+100%"]);
    await expect(rowCells(page, /^Leads per channel group/, "Direct")).toHaveText(["1", "0", "new"]);
    await expect(rowCells(page, /^The campaigns/, "winter-sale")).toHaveText(["3", "0%", "29 min"]);
    await expect(rowCells(page, /^The campaigns/, "newsletter-dec")).toHaveText(["2", "0%", "—"]);
    await expect(rowCells(page, /^Status funnel/, "New")).toHaveText(["6", "—", "All leads of the period"]);
    await expect(rowCells(page, /^Status funnel/, "Contacted")).toHaveText(["1", "83%", "Leads now Contacted"]);
    await expect(rowCells(page, /^Status funnel/, "Qualified")).toHaveText(["0", "100%", "Leads now Qualified"]);
    await expect(rowCells(page, /by owner/, "Ada Owner")).toHaveText(["1", "1", "29 min"]);
    await expect(rowCells(page, /by owner/, "Unassigned")).toHaveText(["5", "0", "—"]);
    await expect(section(page, "Spam set aside")).toContainText("1 submission set aside as spam in this period");
    await checkAtBothWidths(page, "overview, 30 days");
    await saveScreenshot(page, "dashboard");
    await section(page, "Spam set aside").getByText("Show as table", { exact: true }).click();
    await expect(rowCells(page, /^Submissions set aside as spam per day/, today)).toHaveText(["1"]);
    await section(page, "Leads over time").getByText("Show as table", { exact: true }).click();
    await expect(rowCells(page, /^Leads per day by channel group/, today)).toHaveText(["2", "2", "1", "5"]);
    await checkAtBothWidths(page, "overview, 30 days, tables open");
  });

  await test.step("the last 7 days, broken down by API key", async () => {
    await page.getByRole("navigation", { name: "Date range" }).getByRole("link", { name: "Last 7 days" }).click();
    await expect(page).toHaveURL(/range=7d$/);
    await expect(section(page, "Leads over time")).toContainText("5 leads in this period; 1 lead in the period before (+400%).");
    await expect(rowCells(page, /^Leads per channel group/, "Paid Search")).toHaveText(["2", "1", "+100%"]);
    await page.getByRole("navigation", { name: "Break down by" }).getByRole("link", { name: "API key" }).click();
    await expect(page).toHaveURL(/range=7d&by=apiKey$/);
    await expect(page.getByRole("img", { name: /^Leads per day by API key/ })).toHaveAccessibleDescription(
      new RegExp(`Landing page \\(${key.keyId}\\) 5`),
    );
    await checkAtBothWidths(page, "overview, 7 days, by API key");
    await page.getByRole("navigation", { name: "Break down by" }).getByRole("link", { name: "Channel group" }).click();
    await expect(page).toHaveURL(/range=7d$/);
  });

  await test.step("a bar opens the lead list filtered to its day and channel group", async () => {
    // Paid Search is the first series; today the last of the 7 bars.
    // Clicked once its drawing is listened to (chart-links.tsx marks it): a click before that does nothing.
    const bar = page.locator(
      '#chart-over-time svg[data-links="ready"] path[ecmeta_ssr_type="chart"][ecmeta_series_index="0"][ecmeta_data_index="6"]',
    );
    await bar.click();
    await expect(page).toHaveURL(new RegExp(`/t/${team.slug}/leads\\?channel=Paid\\+Search&from=${today}&to=${today}$`));
    await expect(page.getByText("2 leads match")).toBeVisible();
    await expect(page.getByLabel("Channel group")).toHaveValue("Paid Search");
    const rows = page.getByRole("table", { name: /^Leads/ }).getByRole("row");
    await expect(rows.filter({ hasText: "Paid One" })).toHaveCount(1);
    await expect(rows.filter({ hasText: "Mail One" })).toHaveCount(0);
  });

  await test.step("a row opens the lead list filtered to it: a campaign, an owner", async () => {
    await page.goBack();
    await expect(page.getByRole("heading", { level: 1, name: "Overview" })).toBeVisible();
    await table(page, /^The campaigns/)
      .getByRole("link", { name: "newsletter-dec" })
      .click();
    const weekAgo = isoDay(new Date(Date.now() - 6 * DAY));
    await expect(page).toHaveURL(new RegExp(`utm_campaign=newsletter-dec&from=${weekAgo}&to=${today}$`));
    await expect(page.getByText("2 leads match")).toBeVisible();
    await page.goBack();
    await table(page, /by owner/)
      .getByRole("link", { name: "Unassigned" })
      .click();
    await expect(page).toHaveURL(/owner=none&from=/);
    await expect(page.getByText("4 leads match")).toBeVisible();
    await page.goBack();
  });

  await test.step("a table's CSV download", async () => {
    const download = page.waitForEvent("download");
    await page.getByRole("link", { name: "Download CSV of channel groups" }).click();
    const file = await download;
    expect(file.suggestedFilename()).toBe(`overview-${team.slug}-channel-groups-${isoDay(new Date(Date.now() - 6 * DAY))}-to-${today}.csv`);
    const text = readFileSync((await file.path())!, "utf8");
    expect(text).toBe(
      '\uFEFF"Channel group","Leads","Previous period","Change (%)"\r\n"Paid Search","2","1","100"\r\n"Email","2","0",""\r\n"Direct","1","0",""\r\n',
    );
  });

  await test.step("the CSVs are the team's members' only", async () => {
    const base = `/t/${team.slug}/leads/overview/csv`;
    expect((await page.request.get(`${base}?table=owners&range=90d`)).status()).toBe(200);
    expect((await page.request.get(`${base}?table=everything`)).status()).toBe(404);
    const outsider = await signInAs(await newUser());
    expect((await outsider.request.get(`${base}?table=owners`)).status()).toBe(404);
    expect((await outsider.request.get(`/t/${team.slug}/leads/overview`)).status()).toBe(404);
  });

  await test.step("a custom range, and one that cannot be read", async () => {
    const from = isoDay(new Date(Date.now() - 45 * DAY));
    await page.getByLabel("From (UTC)").fill(from);
    await page.getByLabel("To (UTC, inclusive)").fill(today);
    await page.getByRole("button", { name: "Show range" }).click();
    await expect(page).toHaveURL(new RegExp(`range=custom&from=${from}&to=${today}`));
    await expect(section(page, "Leads over time")).toContainText("7 leads in this period");
    await expect(page.getByRole("img", { name: /^Leads per week by channel group/ })).toBeVisible();
    await page.goto(`/t/${team.slug}/leads/overview?range=custom&from=2026-02-30&to=nope`);
    await expect(page.getByRole("status").filter({ hasText: "showing the last 30 days instead" })).toBeVisible();
    await expect(section(page, "Leads over time")).toContainText("6 leads in this period");
    await checkAtBothWidths(page, "overview, a range that cannot be read");
  });
});
