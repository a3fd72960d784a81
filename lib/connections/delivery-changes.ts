import { recordAuditEvent, type AuditActor } from "../audit/audit-log";
import { db } from "../db/client";
import { deleteKeptDeliveryRow } from "./connection-delivery-store";

// What owners and admins do with one delivery of a connection's log: delete one that keeps
// its body (a delivery they will not map, a refusal they have read), which frees its room
// among the bodies the connection keeps. Audited in the same transaction, by ids only: the
// body is a person's answers and never enters the audit log.

/** Deletes the team's kept delivery `id` of connection `connectionId`; false when the team has none such. */
export async function deleteKeptDelivery(options: {
  teamId: string;
  connectionId: string;
  id: string;
  actor: AuditActor;
}): Promise<boolean> {
  const { teamId, connectionId, id, actor } = options;
  return db().$transaction(async (tx) => {
    if (!(await deleteKeptDeliveryRow(tx, { teamId, connectionId, id }))) return false;
    await recordAuditEvent(
      { teamId, action: "connection.delivery_deleted", actor, targetId: connectionId, details: { delivery_id: id } },
      tx,
    );
    return true;
  });
}
