import { handleMcpHttp } from "@/lib/mcp/http";

export const dynamic = "force-dynamic";

/** MCP over Streamable HTTP, stateless: POST only (lib/mcp/http.ts); GET and DELETE answer 405. */
export const POST = (req: Request): Promise<Response> => handleMcpHttp(req);
