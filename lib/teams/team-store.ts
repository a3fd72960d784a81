import { db } from "../db/client";
import { API_SOURCE_NAME } from "./lead-sources";

// Every database access for teams and memberships lives here.

export type Role = "owner" | "admin" | "member";
export const ROLES: readonly Role[] = ["owner", "admin", "member"];

export type Team = { id: string; slug: string; name: string; defaultPhoneCountry: string | null };

const SLUG = /^[a-z0-9](?:[a-z0-9-]{0,38}[a-z0-9])?$/;

export function isValidSlug(slug: string): boolean {
  return SLUG.test(slug);
}

/** Creates a team with its "API" lead source and, when given, its owner: all or nothing. */
export async function createTeam(options: {
  slug: string;
  name: string;
  ownerUserId?: string;
  defaultPhoneCountry?: string | null;
}): Promise<Team> {
  if (!isValidSlug(options.slug)) throw new Error(`Invalid team slug "${options.slug}"`);
  return db().$transaction(async (tx) => {
    const team = await tx.team.create({
      data: {
        slug: options.slug,
        name: options.name,
        defaultPhoneCountry: options.defaultPhoneCountry?.toUpperCase() ?? null,
        sources: { create: { name: API_SOURCE_NAME, nameKey: API_SOURCE_NAME.toLowerCase() } },
      },
      select: { id: true, slug: true, name: true, defaultPhoneCountry: true },
    });
    if (options.ownerUserId) {
      await tx.membership.create({ data: { teamId: team.id, userId: options.ownerUserId, role: "owner" } });
    }
    return team;
  });
}

export function findTeamBySlug(slug: string): Promise<Team | null> {
  return db().team.findUnique({
    where: { slug },
    select: { id: true, slug: true, name: true, defaultPhoneCountry: true },
  });
}

export async function deleteTeam(teamId: string): Promise<void> {
  await db().team.delete({ where: { id: teamId } });
}

export async function addMember(options: { teamId: string; userId: string; role: Role }): Promise<void> {
  await db().membership.upsert({
    where: { userId_teamId: { userId: options.userId, teamId: options.teamId } },
    create: options,
    update: { role: options.role },
  });
}
