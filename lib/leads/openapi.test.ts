import assert from "node:assert/strict";
import { test } from "node:test";
import { KNOWN_FIELDS, LIMITS } from "./lead-input-schema";
import { openApiDocument } from "./openapi";

type Schema = { properties: Record<string, { maxLength?: number }>; required: string[]; additionalProperties: unknown };

const operation = openApiDocument().paths["/api/method/crm.api.leads.create_lead"].post;

test("the OpenAPI body schema is the handler's schema: every known field, name required, scalar or list extra fields", () => {
  for (const type of ["application/json", "multipart/form-data", "application/x-www-form-urlencoded"] as const) {
    const schema = operation.requestBody.content[type].schema as unknown as Schema;
    assert.deepEqual(Object.keys(schema.properties).sort(), [...KNOWN_FIELDS].sort(), type);
    assert.deepEqual(schema.required, ["name"]);
    assert.equal(schema.properties.name?.maxLength, LIMITS.name);
    assert.deepEqual(schema.additionalProperties, {
      anyOf: [
        { type: "string", maxLength: LIMITS.extraFieldValue },
        { type: "number" },
        { type: "boolean" },
        {
          type: "array",
          maxItems: LIMITS.extraFieldListItems,
          items: { anyOf: [{ type: "string", maxLength: LIMITS.extraFieldValue }, { type: "number" }, { type: "boolean" }] },
          description: "A repeated field (interests=a&interests=b, interests[]=a, or a JSON array), in the order sent.",
        },
      ],
    });
  }
});

test("the document lists 201, 200 (added to the person's lead) and every error status the endpoint answers", () => {
  assert.deepEqual(Object.keys(operation.responses).sort(), ["200", "201", "400", "401", "405", "413", "415", "422", "500", "503"]);
});

test("the webhooks section documents the lead.created payload from the schema that builds it", async () => {
  const { leadCreatedEventSchema } = await import("../webhooks/lead-created-event");
  const webhook = openApiDocument().webhooks["lead.created"].post;
  const schema = webhook.requestBody.content["application/json"].schema as unknown as {
    properties: Record<string, { properties?: Record<string, unknown> }>;
  };
  assert.deepEqual(Object.keys(schema.properties), Object.keys(leadCreatedEventSchema.shape));
  assert.deepEqual(Object.keys(schema.properties.data!.properties!), ["team", "lead", "created_by"]);
  assert.deepEqual(
    webhook.parameters.map((p) => p.name),
    ["webhook-id", "webhook-timestamp", "webhook-signature"],
  );
});

test("lead.created names the lead's status and owner; lead.updated documents its changes from the schema that builds it", () => {
  type Node = { properties?: Record<string, Node>; enum?: string[]; anyOf?: Node[]; type?: string | string[] };
  const body = (event: "lead.created" | "lead.updated") =>
    openApiDocument().webhooks[event].post.requestBody.content["application/json"].schema as unknown as Node;
  const lead = body("lead.created").properties!.data!.properties!.lead!.properties!;
  assert.deepEqual(lead.status!.enum, ["new", "contacted", "nurture", "qualified", "unqualified", "junk"]);
  assert.ok(lead.owner, "the lead's owner");
  const updated = body("lead.updated").properties!.data!.properties!;
  assert.deepEqual(Object.keys(updated), ["team", "lead_id", "changes"]);
  assert.deepEqual(Object.keys(updated.changes!.properties!), ["status", "owner"]);
  assert.deepEqual(
    openApiDocument().webhooks["lead.updated"].post.parameters.map((p) => p.name),
    ["webhook-id", "webhook-timestamp", "webhook-signature"],
  );
});
