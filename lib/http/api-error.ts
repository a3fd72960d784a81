/**
 * The one error type of the API. Every failure the endpoint reports is an ApiError;
 * `errorResponse` (lib/http/envelope.ts) turns it into the spec's envelope.
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    /** The specific reason: the envelope's `error`. */
    readonly error: string,
    /** The general category: the envelope's `message`. */
    readonly category: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(error);
    this.name = "ApiError";
  }
}

export const AUTHENTICATION_FAILED = "Authentication failed";
export const VALIDATION_FAILED = "Validation failed";

/**
 * A 401 of spec section 5. `key` is set when the presented id names a real key of a team
 * (a wrong secret): that team sees the failure in the key's request log. The caller
 * learns nothing from it: the envelope is the same as for an unknown key.
 */
export class AuthenticationError extends ApiError {
  constructor(
    error: string,
    readonly key: { keyId: string; teamId: string } | null = null,
  ) {
    super(401, error, AUTHENTICATION_FAILED);
  }
}
export const validationError = (error: string) => new ApiError(422, error, VALIDATION_FAILED);
export const badRequest = (error: string) => new ApiError(400, error, "Bad request");
