import { db } from "../db/client";
import { Prisma } from "../generated/sqlite/client";
import { parseWorkingHours, type Availability } from "../routing/availability";

// A member's availability for lead routing (lib/routing/availability.ts), as the user's row
// keeps it: away, awayUntil and workingHours (JSON; null: always on duty).

/** The user's availability; hours that no longer parse read as none (always on duty). */
export async function readAvailability(userId: string): Promise<Availability> {
  const row = await db().user.findUniqueOrThrow({ where: { id: userId }, select: { away: true, awayUntil: true, workingHours: true } });
  return { away: row.away, awayUntil: row.awayUntil, workingHours: parseWorkingHours(row.workingHours) };
}

/**
 * Stores the user's availability and, in the same transaction, bumps the routing version of
 * every team they are a member of: the intake keeps each team's routing and reads it again
 * when the version changes. False when there is no such user (nothing is written).
 */
export async function setAvailability(userId: string, availability: Availability): Promise<boolean> {
  const { away, awayUntil, workingHours: hours } = availability;
  return db().$transaction(async (tx) => {
    const { count } = await tx.user.updateMany({
      where: { id: userId },
      data: {
        away,
        awayUntil,
        workingHours: hours ? { timeZone: hours.timeZone, days: [...hours.days], start: hours.start, end: hours.end } : Prisma.DbNull,
      },
    });
    if (count !== 1) return false;
    const teams = await tx.membership.findMany({ where: { userId }, select: { teamId: true }, orderBy: { teamId: "asc" } });
    // One team at a time, in id order: two members' changes lock the teams they share in the
    // same order, so on PostgreSQL they queue instead of deadlocking.
    for (const { teamId } of teams) {
      await tx.team.update({ where: { id: teamId }, data: { routingVersion: { increment: 1 } } });
    }
    return true;
  });
}
