import type { Metadata } from "next";
import Link from "next/link";
import { pagePrincipal } from "@/app/_lib/page-access";
import { OperationList } from "@/components/api/operation-list";
import { PageHeader } from "@/components/ui/page-header";
import { openApiDocument } from "@/lib/api/openapi";
import { API_ROUTE_GROUPS } from "@/lib/api/routes";
import { apiUrl } from "@/lib/api/client";
import { apiDocRoutes } from "@/lib/api/schemas";
import { plural } from "@/lib/core/plural";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "API" };

/** The HTTP API, read from the same OpenAPI document agents fetch at /api/v1/openapi.json. */
export default async function ApiPage() {
  await pagePrincipal();
  const doc = openApiDocument();
  const count = Object.values(doc.paths).reduce((n, ops) => n + Object.keys(ops).length, 0);
  const json = apiUrl(apiDocRoutes.openapi);
  return (
    <div>
      <PageHeader
        title="API"
        description={
          <>
            {plural(count, "operation")}, generated from the zod schemas the routes parse with. Agents and scripts call the same functions as these pages; the machine-readable document is{" "}
            <Link className="underline" href={json} prefetch={false}>
              {json}
            </Link>{" "}
            (OpenAPI {doc.openapi}). Errors are always <code className="font-mono">{'{"error":{"code","message"}}'}</code>; team mode needs a session or <code className="font-mono">Authorization: Bearer wb_…</code>.
          </>
        }
      />
      <OperationList doc={doc} groups={API_ROUTE_GROUPS} />
    </div>
  );
}
