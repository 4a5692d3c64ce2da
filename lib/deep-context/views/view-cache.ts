/**
 * The computed views of deep-context runs, kept while their packet is unchanged: the run page,
 * its findings windows, the graph, search and comparisons all read the same view object.
 */
import path from "node:path";
import { LRUCache } from "lru-cache";
import { ProjectFs } from "../../core/project-fs";
import type { SignalVariant } from "../convergence";
import { packetFingerprint } from "../run-cache";
import { loadRunView, type RunView } from "./run-view";

// A computed view of a large packet is tens of MB: keep only a few. On globalThis because
// Next bundles each route separately, and the index route warms what the page reads.
const globalViews = globalThis as { __workbenchRunViews?: LRUCache<string, Promise<RunView>> };
const views = (globalViews.__workbenchRunViews ??= new LRUCache<string, Promise<RunView>>({ max: 4 }));

/**
 * The run view, computed once per packet state and variant (see run-cache.ts); with
 * `throughIteration`, the run as it stood after that iteration (a comparison baseline).
 */
export async function cachedRunView(rootPath: string, relPath: string, variant: SignalVariant, throughIteration?: number): Promise<RunView> {
  const pfs = await ProjectFs.open(rootPath);
  const dir = pfs.resolve(relPath);
  // The spec folder holds the packet; its files (config, report, seats) make the key.
  const key = `${dir}\u0001${variant}\u0001${throughIteration ?? ""}\u0001${packetFingerprint(pfs, path.posix.dirname(relPath))}`;
  let view = views.get(key);
  if (!view) {
    view = loadRunView(rootPath, relPath, variant, { throughIteration });
    views.set(key, view);
    view.catch(() => views.delete(key));
  }
  return view;
}
