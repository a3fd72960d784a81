/**
 * A JSON value for Prisma to store exactly as given. Prisma's argument serialiser copies
 * objects key by key (so "__proto__" is dropped) and reads some keys as instructions
 * ("$type", "__prismaRawParameters__" replaces the whole value with its "values" field).
 * Handing the value over as a Raw tagged value, the form Prisma itself uses to escape
 * "$type", stores it as it is.
 */
export function rawJson(value: unknown) {
  return { toJSON: () => ({ $type: "Raw", value }) };
}
