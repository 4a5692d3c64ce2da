import { z } from "zod";
import { defineRoute, opaque } from "../core/contract";

export const apiDocRoutes = {
  openapi: defineRoute({
    id: "openapi",
    method: "GET",
    path: "/api/v1/openapi.json",
    tag: "api",
    summary: "This API as an OpenAPI 3.1 document, generated from the routes' zod schemas",
    access: { kind: "signed-in" },
    response: {
      status: 200,
      description: "the document",
      json: z.object({
        openapi: z.string().describe("3.1.x"),
        info: opaque("title, version and description"),
        paths: opaque("every operation by path"),
        components: opaque("the shared error schema and the security schemes"),
      }),
    },
  }),
};
