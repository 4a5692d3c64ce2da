import http from "node:http";
import type { AddressInfo } from "node:net";

type RouteHandler = (req: Request) => Promise<Response>;

/**
 * A route handler behind a real HTTP listener on 127.0.0.1, as `next start` serves it: methods
 * the route does not export answer 405, as Next answers them. Bodies stream both ways, so an
 * event-stream answer reaches the client as it is written.
 */
export async function serveRoute(handlers: Partial<Record<string, RouteHandler>>): Promise<{ url: string; close: () => Promise<void> }> {
  const server = http.createServer((req, res) => {
    void (async () => {
      const handler = handlers[req.method ?? ""];
      if (!handler) {
        res.writeHead(405, { allow: Object.keys(handlers).join(", ") }).end();
        return;
      }
      const chunks: Buffer[] = [];
      for await (const c of req) chunks.push(c as Buffer);
      const headers = new Headers();
      for (const [k, v] of Object.entries(req.headers)) if (typeof v === "string") headers.set(k, v);
      const abort = new AbortController();
      res.on("close", () => abort.abort());
      const response = await handler(new Request(`http://${req.headers.host}${req.url}`, { method: req.method, headers, body: chunks.length ? Buffer.concat(chunks) : undefined, signal: abort.signal }));
      res.writeHead(response.status, Object.fromEntries(response.headers));
      const reader = response.body?.getReader();
      for (let chunk = await reader?.read(); chunk && !chunk.done; chunk = await reader!.read()) res.write(chunk.value);
      res.end();
    })().catch((e: unknown) => {
      res.writeHead(500).end(String(e));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
