/**
 * The one error type route handlers throw. The services' error handler turns it into the JSON error
 * body every endpoint uses (`{error, error_description}`, RFC 6749 §5.2 shape) plus its headers.
 */
export class HttpError extends Error {
  override readonly name = 'HttpError';
  constructor(
    readonly status: number,
    readonly error: string,
    readonly description: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(description);
  }
}

export const invalidRequest = (description: string) => new HttpError(400, 'invalid_request', description);
