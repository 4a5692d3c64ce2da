/**
 * Every route of the HTTP API, by capability: the one list the OpenAPI document is generated
 * from and the route test checks app/api against.
 */
import { accountRoutes } from "../auth/schemas";
import { activityRoutes, reviewRoutes } from "../collab/schemas";
import type { AnyRouteContract } from "../core/contract";
import { runRoutes } from "../deep-context/schemas";
import { inventoryRoutes } from "../inventory/schemas";
import { mcpRoutes } from "../mcp/route-schemas";
import { memoryRoutes } from "../memory/schemas";
import { kbRoutes } from "../moc/schemas";
import { opsRoutes } from "../ops/schemas";
import { packetRoutes } from "../packets/schemas";
import { projectRoutes } from "../projects/schemas";
import { searchRoutes } from "../search/schemas";
import { viewRoutes } from "../views/schemas";
import { apiDocRoutes } from "./schemas";

/** In the order the API page shows them. */
export const API_ROUTE_GROUPS: { tag: string; title: string; routes: Record<string, AnyRouteContract> }[] = [
  { tag: "projects", title: "Projects and indexing", routes: projectRoutes },
  { tag: "inventory", title: "Topic inventory and load-context", routes: inventoryRoutes },
  { tag: "knowledge", title: "Knowledge base (context-loader)", routes: kbRoutes },
  { tag: "runs", title: "Deep-loop runs", routes: runRoutes },
  { tag: "packets", title: "Packets and briefs (context-pack)", routes: packetRoutes },
  { tag: "review", title: "Review, comments and snapshots", routes: reviewRoutes },
  { tag: "activity", title: "Agent activity (MCP)", routes: activityRoutes },
  { tag: "memory", title: "Memory proposals and checkpoints", routes: memoryRoutes },
  { tag: "search", title: "Search and the command palette", routes: searchRoutes },
  { tag: "views", title: "Saved views", routes: viewRoutes },
  { tag: "accounts", title: "Accounts, tokens and members (team mode)", routes: accountRoutes },
  { tag: "mcp", title: "Agents: the MCP server", routes: mcpRoutes },
  { tag: "operations", title: "Operations", routes: opsRoutes },
  { tag: "api", title: "This document", routes: apiDocRoutes },
];

export const API_ROUTES: AnyRouteContract[] = API_ROUTE_GROUPS.flatMap((g) => Object.values(g.routes));
