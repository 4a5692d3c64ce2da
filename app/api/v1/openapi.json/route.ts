import { openApiDocument } from "@/lib/api/openapi";
import { apiDocRoutes } from "@/lib/api/schemas";
import { handle } from "../_lib/handler";

export const dynamic = "force-dynamic";

/** This API as an OpenAPI 3.1 document, generated from the routes' zod schemas (lib/<capability>/schemas.ts). */
export const GET = handle(apiDocRoutes.openapi, async () => openApiDocument());
