import { ApiError, badRequest } from "./api-error";

/** One field as a body sent it (or a CSV row holds it): its name and its value, before any rule. */
export type RawField = readonly [name: string, value: unknown];

const SUPPORTED = ["application/json", "multipart/form-data", "application/x-www-form-urlencoded"] as const;

// The rest of an over-long body is never read: closing the connection after the answer
// stops the server from draining it (Node would otherwise read it to reuse the socket).
function tooLarge(limit: number) {
  return new ApiError(413, `Request body is larger than ${limit / 1024} KiB`, "Payload too large", {
    Connection: "close",
  });
}

/** Reads the body into memory, but never more than `limit` bytes of it. */
async function readLimited(request: Request, limit: number): Promise<Uint8Array<ArrayBuffer>> {
  const declared = Number(request.headers.get("content-length"));
  if (Number.isFinite(declared) && declared > limit) throw tooLarge(limit);
  if (!request.body) return new Uint8Array(new ArrayBuffer(0));

  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    let chunk: ReadableStreamReadResult<Uint8Array>;
    try {
      chunk = await reader.read();
    } catch {
      throw badRequest("The request body could not be read");
    }
    if (chunk.done) break;
    size += chunk.value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => undefined);
      throw tooLarge(limit);
    }
    chunks.push(chunk.value);
  }
  const body = new Uint8Array(new ArrayBuffer(size));
  let offset = 0;
  for (const chunk of chunks) {
    body.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return body;
}

function decodeUtf8(bytes: Uint8Array): string {
  try {
    return new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    throw badRequest("The request body is not valid UTF-8");
  }
}

/**
 * application/x-www-form-urlencoded with strict UTF-8: URLSearchParams would turn a
 * malformed percent-escape into U+FFFD and store that silently.
 */
function parseUrlEncoded(text: string): RawField[] {
  const fields: RawField[] = [];
  for (const pair of text.split("&")) {
    if (pair === "") continue;
    const equals = pair.indexOf("=");
    const [name, value] = equals === -1 ? [pair, ""] : [pair.slice(0, equals), pair.slice(equals + 1)];
    fields.push([percentDecode(name), percentDecode(value)]);
  }
  return fields;
}

function percentDecode(text: string): string {
  const bytes = Buffer.from(text.replace(/\+/g, " "), "utf8");
  const out: number[] = [];
  for (let i = 0; i < bytes.length; i++) {
    const hex = bytes[i] === 0x25 && i + 2 < bytes.length ? String.fromCharCode(bytes[i + 1]!, bytes[i + 2]!) : "";
    if (/^[0-9a-fA-F]{2}$/.test(hex)) {
      out.push(parseInt(hex, 16));
      i += 2;
    } else {
      out.push(bytes[i]!);
    }
  }
  return decodeUtf8(Uint8Array.from(out));
}

const REPLACEMENT = "\uFFFD";

/** The charset parameter, when one is given; only UTF-8 is read. */
function assertUtf8Charset(contentType: string): void {
  const charset = /;\s*charset\s*=\s*"?([^";\s]+)"?/i.exec(contentType)?.[1]?.toLowerCase();
  if (charset && charset !== "utf-8" && charset !== "utf8") {
    throw new ApiError(415, `Unsupported charset "${charset.slice(0, 40)}"; send UTF-8`, "Unsupported media type");
  }
}

/** The media type of a Content-Type header, lower-cased, without parameters ("" when absent). */
export function mediaTypeOf(contentType: string | null): string {
  return (contentType ?? "").split(";")[0]!.trim().toLowerCase();
}

/**
 * The media type a body is read as. With `plainTextIsJson`, a sender that posts JSON as
 * text/plain, or with no type (form builders' webhooks: never lose their lead over a
 * header), is read as JSON, which then answers 400 if it is not.
 */
export function bodyMediaType(contentType: string | null, options: { plainTextIsJson?: boolean } = {}): string {
  const mediaType = mediaTypeOf(contentType);
  return options.plainTextIsJson && (mediaType === "text/plain" || mediaType === "") ? "application/json" : mediaType;
}

/** A body as it arrived: its bytes (at most the reader's limit) and its declared type. */
export type ReadBody = { bytes: Uint8Array<ArrayBuffer>; contentType: string; mediaType: string };

/**
 * Reads a body of one of the supported types (JSON, multipart/form-data,
 * application/x-www-form-urlencoded) in UTF-8, never more than `limit` bytes of it. Other
 * types: 415 (text/plain and none are JSON with `plainTextIsJson`); an unreadable body:
 * 400; a larger one: 413.
 */
export async function readBody(request: Request, limit: number, options: { plainTextIsJson?: boolean } = {}): Promise<ReadBody> {
  const contentType = request.headers.get("content-type") ?? "";
  const mediaType = bodyMediaType(contentType, options);
  if (!SUPPORTED.includes(mediaType as (typeof SUPPORTED)[number])) {
    throw new ApiError(
      415,
      `Unsupported content type${mediaType ? ` "${mediaType.slice(0, 100)}"` : ""}; send ${SUPPORTED.join(", ")}`,
      "Unsupported media type",
    );
  }
  assertUtf8Charset(contentType);
  return { bytes: await readLimited(request, limit), contentType, mediaType };
}

/** A JSON body's value, whatever its type; 400 when it is not JSON in UTF-8. */
export function parseJson(bytes: Uint8Array): unknown {
  try {
    return JSON.parse(decodeUtf8(bytes));
  } catch (error) {
    if (error instanceof ApiError) throw error;
    throw badRequest("The request body is not valid JSON");
  }
}

/**
 * The body's parameters in the order sent, from JSON, multipart/form-data or
 * application/x-www-form-urlencoded. Other types: 415; unreadable bodies: 400.
 */
export async function readFields(request: Request, limit: number): Promise<RawField[]> {
  return fieldsOf(await readBody(request, limit));
}

/** The parameters of a body read by readBody, in the order sent; 400 when it is unreadable. */
export async function fieldsOf(body: ReadBody): Promise<RawField[]> {
  const { bytes, contentType, mediaType } = body;
  if (mediaType === "application/json") {
    const parsed = parseJson(bytes);
    if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) {
      throw badRequest("The JSON body must be an object of fields");
    }
    return Object.entries(parsed);
  }

  if (mediaType === "application/x-www-form-urlencoded") {
    return parseUrlEncoded(decodeUtf8(bytes));
  }

  let form: FormData;
  try {
    form = await new Response(bytes, { headers: { "content-type": contentType } }).formData();
  } catch {
    throw badRequest("The multipart/form-data body is malformed");
  }
  const fields = [...form.entries()];
  // The multipart parser decodes text parts leniently (bad bytes become U+FFFD). A text
  // value holding U+FFFD is only genuine when the whole body is valid UTF-8; bad bytes
  // inside a file part do not matter here, files are refused as values anyway.
  if (fields.some(([, value]) => typeof value === "string" && value.includes(REPLACEMENT))) decodeUtf8(bytes);
  return fields;
}
