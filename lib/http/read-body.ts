import { ApiError, badRequest } from "./api-error";
import type { RawField } from "../leads/parse-lead-input";

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
 * The body's parameters in the order sent, from JSON, multipart/form-data or
 * application/x-www-form-urlencoded. Other types: 415; unreadable bodies: 400.
 */
export async function readFields(request: Request, limit: number): Promise<RawField[]> {
  const mediaType = (request.headers.get("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
  if (!SUPPORTED.includes(mediaType as (typeof SUPPORTED)[number])) {
    throw new ApiError(
      415,
      `Unsupported content type${mediaType ? ` "${mediaType}"` : ""}; send ${SUPPORTED.join(", ")}`,
      "Unsupported media type",
    );
  }
  const bytes = await readLimited(request, limit);

  if (mediaType === "application/json") {
    let parsed: unknown;
    try {
      parsed = JSON.parse(decodeUtf8(bytes));
    } catch (error) {
      if (error instanceof ApiError) throw error;
      throw badRequest("The request body is not valid JSON");
    }
    if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) {
      throw badRequest("The JSON body must be an object of fields");
    }
    return Object.entries(parsed);
  }

  if (mediaType === "application/x-www-form-urlencoded") {
    return [...new URLSearchParams(decodeUtf8(bytes)).entries()];
  }

  let form: FormData;
  try {
    form = await new Response(bytes, { headers: { "content-type": request.headers.get("content-type")! } }).formData();
  } catch {
    throw badRequest("The multipart/form-data body is malformed");
  }
  return [...form.entries()];
}
