/**
 * Reads query and form parameters so that a parameter sent twice is an error, never a silent pick of
 * one of the values (RFC 6749 §3.1: "Request and response parameters MUST NOT be included more than once").
 */
import type { FastifyRequest } from 'fastify';
import { invalidRequest } from './http-error';

export class Params {
  constructor(private readonly search: URLSearchParams) {}

  static ofQuery(request: FastifyRequest): Params {
    const url = request.raw.url ?? '';
    const at = url.indexOf('?');
    return new Params(new URLSearchParams(at < 0 ? '' : url.slice(at + 1)));
  }

  /** The form body parsed by `parseFormBody`; anything else means the client sent another content type. */
  static ofForm(body: unknown): Params {
    if (!(body instanceof URLSearchParams)) throw invalidRequest('Content-Type must be application/x-www-form-urlencoded.');
    return new Params(body);
  }

  /** A form body with no repeated parameter, or undefined: what every form POST of the consent and portal pages accepts. */
  static ofSingleValuedForm(body: unknown): Params | undefined {
    try {
      const params = Params.ofForm(body);
      params.assertNoRepeats();
      return params;
    } catch {
      return undefined;
    }
  }

  isRepeated(name: string): boolean {
    return this.search.getAll(name).length > 1;
  }

  /** The names that occur more than once. */
  repeated(): string[] {
    return [...new Set(this.search.keys())].filter((name) => this.isRepeated(name));
  }

  /** The value, or undefined when absent or empty (RFC 6749 §3.1: empty parameters are treated as omitted). */
  optional(name: string): string | undefined {
    if (this.isRepeated(name)) throw invalidRequest(`Parameter ${name} must not be repeated.`);
    const value = this.search.get(name);
    return value === null || value === '' ? undefined : value;
  }

  required(name: string): string {
    const value = this.optional(name);
    if (value === undefined) throw invalidRequest(`Parameter ${name} is required.`);
    return value;
  }

  /**
   * The value of a parameter that has a synonym (the interface's name and the one another client
   * family sends for the same thing). Exactly one of the two must be present: both at once is a
   * malformed request, even with equal values, rather than a silent pick of one.
   */
  requiredEither(name: string, synonym: string): string {
    const value = this.optional(name);
    const synonymValue = this.optional(synonym);
    if (value !== undefined && synonymValue !== undefined) throw invalidRequest(`Send ${name} or ${synonym}, not both.`);
    const either = value ?? synonymValue;
    if (either === undefined) throw invalidRequest(`Parameter ${name} (or ${synonym}) is required.`);
    return either;
  }

  /** Rejects the request when any parameter is repeated, naming them. */
  assertNoRepeats(): void {
    const repeated = this.repeated();
    if (repeated.length > 0) throw invalidRequest(`Parameters must not be repeated: ${repeated.join(', ')}.`);
  }
}

/** Content-type parser for forms: keeps every value so repeats can be detected. */
export function parseFormBody(_request: FastifyRequest, body: string, done: (error: Error | null, body?: unknown) => void): void {
  done(null, new URLSearchParams(body));
}
