/**
 * The computed views of deep-context runs, kept while their packet is unchanged: the run page,
 * its findings windows, the graph, search and comparisons all read the same view object.
 */
import path from "node:path";
import { LRUCache } from "lru-cache";
import { ProjectFs } from "../../core/project-fs";
import type { SignalVariant } from "../convergence";
import { packetFingerprint, packetStates } from "../run-cache";
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
  // The spec folder holds the packet; its files (config, report, seats) make the key.
  return viewFor(pfs, rootPath, relPath, variant, throughIteration, packetFingerprint(pfs, path.posix.dirname(relPath)));
}

/** The current run view and the run folder's version (packetVersion), from one walk of the packet. */
export async function cachedRunViewAndVersion(rootPath: string, relPath: string, variant: SignalVariant): Promise<{ view: Promise<RunView>; version: string }> {
  const pfs = await ProjectFs.open(rootPath);
  const { specFingerprint, version } = packetStates(pfs, relPath);
  return { view: viewFor(pfs, rootPath, relPath, variant, undefined, specFingerprint), version };
}

function viewFor(pfs: ProjectFs, rootPath: string, relPath: string, variant: SignalVariant, throughIteration: number | undefined, specFingerprint: string): Promise<RunView> {
  const key = `${pfs.resolve(relPath)}\u0001${variant}\u0001${throughIteration ?? ""}\u0001${specFingerprint}`;
  let view = views.get(key);
  if (!view) {
    view = loadRunView(rootPath, relPath, variant, { throughIteration });
    views.set(key, view);
    view.catch(() => views.delete(key));
  }
  return view;
}
