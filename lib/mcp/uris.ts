/**
 * The MCP resource URIs of topics, packets and runs. Each mirrors the dashboard page that shows
 * the same thing (`workbench://projects/P/topics/S` is `/projects/P/topics/S`), so a person can
 * copy one from a page and an agent can turn one into a link. Pure: the dashboard shows them too.
 */

export const RESOURCE_SCHEME = "workbench:";

export type ResourceKind = "topics" | "packets" | "runs";

/** The dashboard path of a resource, as the pages link it (segments URI-encoded). */
export function dashboardPath(projectId: string, kind: ResourceKind, key: string): string {
  return `/projects/${encodeURIComponent(projectId)}/${kind}/${encodeURIComponent(key)}`;
}

export function resourceUri(projectId: string, kind: ResourceKind, key: string): string {
  return `${RESOURCE_SCHEME}/${dashboardPath(projectId, kind, key)}`;
}

export const topicUri = (projectId: string, slug: string) => resourceUri(projectId, "topics", slug);
export const packetUri = (projectId: string, packetId: string) => resourceUri(projectId, "packets", packetId);
export const runUri = (projectId: string, runId: string) => resourceUri(projectId, "runs", runId);

/** The dashboard page of a resource URI on a Workbench at `baseUrl`. */
export function dashboardUrl(baseUrl: string, uri: string): string {
  return baseUrl.replace(/\/+$/, "") + uri.slice(RESOURCE_SCHEME.length + 1);
}
