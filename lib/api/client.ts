/**
 * The typed client of the Workbench's own API, for the browser: it takes a route contract
 * (lib/<capability>/schemas.ts), builds the URL from the path parameters and the query, sends
 * the body as JSON, and parses the reply with the contract's response schema, so a component
 * gets the type the server promised or an error, never an unchecked cast.
 */
import { errorBodySchema, type AnyRouteContract, type BodyIn, type ParamsIn, type QueryIn, type ResponseOut } from "../core/contract";

/** A refusal or failure, with the server's code and the message it meant for a person. */
export class ApiError extends Error {
  constructor(
    /** The server's error code (INVALID_INPUT, NOT_FOUND, …); HTTP_<status> when the reply carried none; BAD_REPLY when the reply broke the contract. */
    readonly code: string,
    message: string,
    /** The HTTP status; 0 when the reply never arrived whole. */
    readonly status: number,
  ) {
    super(message);
    this.name = "ApiError";
  }
}

type Slot<K extends string, T> = [T] extends [undefined] ? { [P in K]?: undefined } : { [P in K]: T };

export type CallInput<C extends AnyRouteContract> = Slot<"params", ParamsIn<C>> &
  Slot<"body", BodyIn<C>> & {
    query?: [QueryIn<C>] extends [undefined] ? undefined : Partial<NonNullable<QueryIn<C>>>;
    signal?: AbortSignal;
    cache?: RequestCache;
  };

/** The URL of a route with these path parameters and query (undefined values are left out, lists joined by commas). */
export function apiUrl(contract: AnyRouteContract, params?: Record<string, unknown>, query?: Record<string, unknown>): string {
  const path = contract.path.replace(/\{(\w+)\}/g, (_: string, name: string) => {
    const v = params?.[name];
    if (v === undefined || v === null || v === "") throw new ApiError("INVALID_INPUT", `${name}: missing`, 0);
    return encodeURIComponent(String(v));
  });
  const qs = new URLSearchParams();
  for (const [k, v] of Object.entries(query ?? {})) {
    if (v === undefined || v === null) continue;
    qs.set(k, Array.isArray(v) ? v.join(",") : String(v));
  }
  const s = qs.toString();
  return s ? `${path}?${s}` : path;
}

/** Calls a route of the Workbench's API; resolves to the parsed reply (undefined for a route with no JSON body). */
export async function callApi<C extends AnyRouteContract>(contract: C, input: CallInput<C>): Promise<ResponseOut<C>> {
  const { params, query, body, signal, cache } = input as { params?: Record<string, unknown>; query?: Record<string, unknown>; body?: unknown; signal?: AbortSignal; cache?: RequestCache };
  const init: RequestInit = { method: contract.method, signal, cache };
  if (contract.body) {
    init.headers = { "content-type": "application/json" };
    init.body = JSON.stringify(body ?? {});
  }
  const res = await fetch(apiUrl(contract, params, query), init);
  if (!res.ok) {
    const refusal = errorBodySchema.safeParse(await res.json().catch(() => null));
    if (refusal.success) throw new ApiError(refusal.data.error.code, refusal.data.error.message, res.status);
    throw new ApiError(`HTTP_${res.status}`, `The server answered ${res.status}.`, res.status);
  }
  const schema = contract.response.json;
  if (!schema || res.status === 204) return undefined as ResponseOut<C>;
  const parsed = schema.safeParse(await res.json().catch(() => undefined));
  if (!parsed.success) throw new ApiError("BAD_REPLY", "The server's reply does not match the API contract; reload the page, or report it if it persists.", res.status);
  return parsed.data as ResponseOut<C>;
}

/** The message to show a person for a failed call; `fallback` stands in when the server said nothing a person can read. */
export function errorMessage(e: unknown, fallback?: string): string {
  if (fallback !== undefined && e instanceof ApiError && e.code.startsWith("HTTP_")) return fallback;
  return e instanceof Error ? e.message : String(e);
}
