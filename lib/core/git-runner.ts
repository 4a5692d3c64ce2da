/**
 * The one way the Workbench runs git. git obeys a repository's own configuration, and that file
 * (with every file it includes) is written by whoever wrote the repository: dozens of settings
 * start a program (core.fsmonitor, gpg.program with log.showSignature, core.pager, diff and
 * filter drivers, hooks, credential helpers…), and includes read files from anywhere. So git
 * never reads the configuration of a repository the Workbench does not own:
 *
 * - A repository is read through a shadow git folder of ours (openRepository): our own config,
 *   a copy of HEAD, links to the refs, and the repository's objects as an alternate. git is
 *   pointed at the shadow with GIT_DIR, so it never discovers the repository or opens its
 *   config, config.worktree, hooks, info/attributes or anything they name.
 * - No system or global configuration (GIT_CONFIG_NOSYSTEM, GIT_CONFIG_GLOBAL=/dev/null, an
 *   empty HOME), except for the network part of clone and fetch (`transport`), which uses the
 *   server account's own global configuration (credential helpers, proxies, url rewrites: the
 *   operator's settings, never a repository's).
 * - Every setting git-config(1) documents as starting a command or reading a file is fixed on
 *   the command line (HARDENED), which outranks every file, and only the subcommands below run.
 * - Each run has a deadline, after which git and everything it started are killed, and a cap
 *   on what it may print.
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { readEnv } from "./env";
import { readRegularFileSync } from "./fs/named-file";

/** The git subcommands the Workbench runs; anything else is refused before git starts. */
export const GIT_SUBCOMMANDS = ["log", "show-ref", "for-each-ref", "rev-parse", "symbolic-ref", "config", "clone", "fetch", "reset", "remote"] as const;
export type GitSubcommand = (typeof GIT_SUBCOMMANDS)[number];

/**
 * Where a setting that names a program points, so that nothing can start even if git reached
 * for it: nothing can exist below /dev/null, which is not a folder.
 */
export const NO_PROGRAM = "/dev/null/no-program";

/**
 * `-c` settings for every run. Command-line settings outrank every configuration file, so
 * these hold whatever a file says. The settings with a driver or tool name in them
 * (diff.<driver>.textconv, filter.<driver>.*, merge.<driver>.driver, pager.<cmd>, alias.*…)
 * cannot be listed; they are unreachable because git never reads a configuration that could
 * define them, and the subcommands run never use them.
 */
const HARDENED: readonly (readonly [string, string])[] = [
  ["core.fsmonitor", "false"],
  ["core.hooksPath", "/dev/null"],
  ["core.pager", "cat"],
  ["core.editor", NO_PROGRAM],
  ["sequence.editor", NO_PROGRAM],
  ["core.askPass", ""],
  ["core.gitProxy", "none"],
  ["core.alternateRefsCommand", NO_PROGRAM],
  ["core.attributesFile", "/dev/null"],
  ["core.excludesFile", "/dev/null"],
  ["gpg.program", NO_PROGRAM],
  ["gpg.openpgp.program", NO_PROGRAM],
  ["gpg.x509.program", NO_PROGRAM],
  ["gpg.ssh.program", NO_PROGRAM],
  ["gpg.ssh.defaultKeyCommand", NO_PROGRAM],
  ["gpg.ssh.allowedSignersFile", "/dev/null"],
  ["log.showSignature", "false"],
  ["merge.verifySignatures", "false"],
  ["log.mailmap", "false"],
  ["mailmap.file", "/dev/null"],
  ["mailmap.blob", ""],
  ["help.autoCorrect", "0"],
  ["submodule.recurse", "false"],
  ["fetch.recurseSubmodules", "false"],
  ["gc.auto", "0"],
  ["maintenance.auto", "false"],
  ["protocol.ext.allow", "never"],
];

/** Only in isolated runs: no network, no ssh, no credentials. */
const ISOLATED_ONLY: readonly (readonly [string, string])[] = [
  ["protocol.allow", "never"],
  ["core.sshCommand", NO_PROGRAM],
  ["credential.helper", ""],
];

/** Options git would take as a program to run, a file to write, or a pager; never passed. */
const REFUSED_OPTION = /^(-c|-u|--config(=|$)|--config-env|--upload-pack|--receive-pack|--exec|--output|--ext-diff|--textconv|--show-signature|--paginate|--open-files-in-pager|--template=.)/;

const READ_TIMEOUT_MS = 120_000;
/** `git log` of MAX_INDEXED_COMMITS full messages fits with a wide margin. */
const MAX_OUTPUT_BYTES = 256 * 1024 * 1024;
const MAX_STDERR_BYTES = 64 * 1024;

export class GitError extends Error {
  constructor(
    message: string,
    readonly exitCode: number | null,
    readonly timedOut: boolean,
  ) {
    super(message);
    this.name = "GitError";
  }
}

export interface GitRunOptions {
  /** The git folder to use; git never looks for one itself. */
  gitDir?: string;
  /** The working tree of gitDir, for the commands that write files (reset --hard in our checkouts). */
  workTree?: string;
  /** clone and fetch: the server account's global configuration and the network transports. */
  transport?: boolean;
  /** Text for git's standard input, which is closed after it (git can never wait on a prompt). */
  input?: string;
  timeoutMs?: number;
  /** Exit codes that are an answer rather than a failure (show-ref exits 1 when nothing matches). */
  okExitCodes?: readonly number[];
}

let scratch: string | undefined;

/**
 * Memory-backed where there is one: a shadow is about a dozen files and folders made and
 * removed per read, which cost 7 ms on a disk-backed /tmp and 0.1 ms on /dev/shm.
 */
function scratchParent(): string {
  try {
    fs.accessSync("/dev/shm", fs.constants.W_OK | fs.constants.X_OK);
    if (fs.statSync("/dev/shm").isDirectory()) return "/dev/shm";
  } catch {
    // No /dev/shm (macOS) or not ours to write.
  }
  return os.tmpdir();
}

/** A private folder for this process: an empty HOME and the shadow git folders. */
function scratchDir(): string {
  if (scratch && fs.existsSync(scratch)) return scratch;
  scratch = fs.mkdtempSync(path.join(scratchParent(), "wb-git-"));
  fs.mkdirSync(path.join(scratch, "home"));
  fs.mkdirSync(path.join(scratch, "cwd"));
  const dir = scratch;
  process.once("exit", () => fs.rmSync(dir, { recursive: true, force: true }));
  return scratch;
}

function environment(opts: GitRunOptions): Record<string, string> {
  const dir = scratchDir();
  const env: Record<string, string> = {
    PATH: readEnv("PATH") ?? "/usr/bin:/bin",
    LC_ALL: "C",
    GIT_CONFIG_NOSYSTEM: "1",
    GIT_ATTR_NOSYSTEM: "1",
    GIT_TERMINAL_PROMPT: "0",
    GIT_OPTIONAL_LOCKS: "0",
    // A git started without GIT_DIR (clone) looks for a repository from its folder: ours, empty, and no further up.
    GIT_CEILING_DIRECTORIES: dir,
  };
  if (opts.transport) {
    // The operator's own settings for reaching remotes (credential helpers, proxies, keys).
    env.HOME = readEnv("HOME") ?? path.join(dir, "home");
    env.GIT_ALLOW_PROTOCOL = "https:ssh:file";
    env.GIT_SSH_COMMAND = "ssh -o BatchMode=yes";
  } else {
    env.HOME = path.join(dir, "home");
    env.XDG_CONFIG_HOME = path.join(dir, "home");
    env.GIT_CONFIG_GLOBAL = os.devNull;
    env.GIT_ALLOW_PROTOCOL = "";
  }
  if (opts.gitDir) env.GIT_DIR = opts.gitDir;
  if (opts.workTree) env.GIT_WORK_TREE = opts.workTree;
  return env;
}

/** The full argument list: hardened settings, then the subcommand and its arguments. */
export function gitArgv(args: readonly [GitSubcommand, ...string[]], transport = false): string[] {
  const [sub, ...rest] = args;
  if (!(GIT_SUBCOMMANDS as readonly string[]).includes(sub)) throw new GitError(`git ${String(sub)}: not a subcommand the Workbench runs.`, null, false);
  const refused = rest.find((a) => REFUSED_OPTION.test(a));
  if (refused !== undefined) throw new GitError(`git ${sub}: the option ${refused} is never passed to git.`, null, false);
  const settings = transport ? HARDENED : [...HARDENED, ...ISOLATED_ONLY];
  return ["--no-pager", "--no-replace-objects", ...settings.flatMap(([k, v]) => ["-c", `${k}=${v}`]), sub, ...rest];
}

/**
 * Runs git and resolves with what it printed. Rejects with a GitError (git's own message) when
 * it fails, prints more than the cap, or outlives its deadline (then git and everything it
 * started are killed).
 */
export function runGit(args: readonly [GitSubcommand, ...string[]], opts: GitRunOptions = {}): Promise<string> {
  let argv: string[];
  try {
    argv = gitArgv(args, opts.transport);
  } catch (e) {
    return Promise.reject(e instanceof Error ? e : new Error(String(e)));
  }
  const env = environment(opts);
  return new Promise((resolve, reject) => {
    // clone and fetch start programs of git's own (upload-pack, index-pack): they get a process
    // group, so a deadline kills those too. The reads start none.
    const group = opts.transport === true;
    const child = spawn("git", argv, { cwd: path.join(scratchDir(), "cwd"), env: env as NodeJS.ProcessEnv, stdio: "pipe", detached: group });
    const out: Buffer[] = [];
    let outBytes = 0;
    let err = "";
    let failure: string | null = null;
    let timedOut = false;
    const killGroup = () => {
      try {
        if (child.pid) process.kill(group ? -child.pid : child.pid, "SIGKILL");
      } catch {
        // Already gone.
      }
    };
    const timer = setTimeout(() => {
      timedOut = true;
      failure = `git ${args[0]} did not finish within ${Math.round((opts.timeoutMs ?? READ_TIMEOUT_MS) / 1000)} s and was stopped.`;
      killGroup();
    }, opts.timeoutMs ?? READ_TIMEOUT_MS);
    child.stdout.on("data", (chunk: Buffer) => {
      outBytes += chunk.length;
      if (outBytes > MAX_OUTPUT_BYTES) {
        failure ??= `git ${args[0]} printed more than ${MAX_OUTPUT_BYTES} bytes and was stopped.`;
        killGroup();
        return;
      }
      out.push(chunk);
    });
    child.stderr.setEncoding("utf8").on("data", (s: string) => {
      if (err.length < MAX_STDERR_BYTES) err += s;
    });
    // Closed at once (after the input, if any): a prompt git might open reads end-of-file.
    child.stdin.on("error", () => undefined);
    child.stdin.end(opts.input ?? "");
    child.on("error", (e) => {
      clearTimeout(timer);
      reject(new GitError(`git could not be started: ${e.message}`, null, false));
    });
    child.on("close", (code) => {
      clearTimeout(timer);
      if (failure) return reject(new GitError(failure, code, timedOut));
      if (code === 0 || (code !== null && opts.okExitCodes?.includes(code))) return resolve(Buffer.concat(out).toString("utf8"));
      reject(new GitError(err.trim() || `git ${args[0]} exited with code ${code ?? "(killed)"}.`, code, false));
    });
  });
}

/** Where a repository's git folder and its shared part (differs for a linked worktree) are. */
export interface GitLocation {
  gitDir: string;
  commonDir: string;
}

const GITFILE_MAX = 4096;

function statOrNull(p: string, follow = true): fs.Stats | null {
  try {
    return follow ? fs.statSync(p) : fs.lstatSync(p);
  } catch {
    return null;
  }
}

/** The git folder a `.git` entry stands for: the folder itself, or the one a `gitdir:` file names. */
function gitDirOf(dotGit: string): string | null {
  const st = statOrNull(dotGit);
  if (!st) return null;
  if (st.isDirectory()) return dotGit;
  if (!st.isFile()) return null;
  let text: string;
  try {
    text = readRegularFileSync(dotGit, GITFILE_MAX).toString("utf8");
  } catch {
    return null;
  }
  const m = /^gitdir: *(.+?)\s*$/m.exec(text);
  return m ? path.resolve(path.dirname(dotGit), m[1]!) : null;
}

/** A folder git would take as a repository: HEAD, objects and refs (in its common folder). */
function locate(gitDir: string): GitLocation | null {
  if (!statOrNull(path.join(gitDir, "HEAD"))?.isFile()) return null;
  let commonDir = gitDir;
  const commondirFile = path.join(gitDir, "commondir");
  if (statOrNull(commondirFile)?.isFile()) {
    try {
      commonDir = path.resolve(gitDir, readRegularFileSync(commondirFile, GITFILE_MAX).toString("utf8").trim());
    } catch {
      return null;
    }
  }
  if (!statOrNull(path.join(commonDir, "objects"))?.isDirectory()) return null;
  if (!statOrNull(path.join(commonDir, "refs"))?.isDirectory() && !statOrNull(path.join(commonDir, "reftable"))?.isDirectory()) return null;
  return { gitDir, commonDir };
}

/**
 * The repository `dir` is in, found as git finds it (a `.git` folder or file in `dir` or the
 * nearest folder above, not across a file system boundary), without running git.
 */
export function findRepository(dir: string): GitLocation | null {
  let cur: string;
  try {
    cur = fs.realpathSync(dir);
  } catch {
    return null;
  }
  const device = statOrNull(cur)?.dev;
  for (;;) {
    const gitDir = gitDirOf(path.join(cur, ".git"));
    if (gitDir) return locate(gitDir);
    const up = path.dirname(cur);
    if (up === cur || statOrNull(up)?.dev !== device) return null;
    cur = up;
  }
}

/** The repository at a path given as a remote (a bare repository, or a folder with `.git`). */
export function findRepositoryAt(p: string): GitLocation | null {
  const dotGit = gitDirOf(path.join(p, ".git"));
  if (dotGit) return locate(dotGit);
  return locate(p) ?? locate(`${p}.git`);
}

/** Extensions a shadow must carry to read the repository's objects and refs; nothing else of its config. */
const READ_EXTENSIONS = /^extensions\.(objectformat|compatobjectformat|refstorage) (\S+)$/gm;

async function readExtensions(loc: GitLocation, shadow: string): Promise<string> {
  let text: string;
  try {
    text = readRegularFileSync(path.join(loc.commonDir, "config"), 1024 * 1024).toString("utf8");
  } catch {
    return "";
  }
  if (!/extensions/i.test(text)) return "";
  // git parses the file (from standard input, so it opens nothing), includes not followed.
  const out = await runGit(["config", "--file", "-", "--no-includes", "--get-regexp", "^extensions\\."], { gitDir: shadow, input: text, okExitCodes: [1] });
  const lines = [...out.matchAll(READ_EXTENSIONS)].map((m) => `\t${m[1]} = ${m[2]}\n`);
  return lines.length ? `[extensions]\n${lines.join("")}` : "";
}

const SHADOW_CONFIG = (version: number) => `[core]\n\trepositoryformatversion = ${version}\n\tbare = true\n\tlogAllRefUpdates = false\n`;

/** A repository opened for reading: git runs on it with only our configuration. */
export interface GitRepository {
  readonly location: GitLocation;
  /** The shadow git folder (ours; removed by close). */
  readonly gitDir: string;
  run(args: readonly [GitSubcommand, ...string[]], opts?: Pick<GitRunOptions, "timeoutMs" | "okExitCodes">): Promise<string>;
  close(): void;
}

export class UnreadableRepository extends Error {
  constructor(message: string) {
    super(message);
    this.name = "UnreadableRepository";
  }
}

function linkIfPresent(from: string, to: string, kind: "file" | "dir"): void {
  const st = statOrNull(from);
  if (!st) return;
  // A named pipe or device in their place would hold git forever: refuse the repository.
  if (kind === "file" ? !st.isFile() : !st.isDirectory()) throw new UnreadableRepository(`${path.basename(from)} is not a regular ${kind === "file" ? "file" : "folder"}.`);
  fs.symlinkSync(fs.realpathSync(from), to);
}

/**
 * A shadow git folder for `loc`: our config, a copy of HEAD, links to refs, packed-refs,
 * shallow and reftable, and the objects as an alternate (so the repository's own alternates
 * resolve from where they are). Throws UnreadableRepository when the repository cannot be
 * read safely.
 */
export async function openRepository(loc: GitLocation): Promise<GitRepository> {
  let head: string;
  try {
    head = readRegularFileSync(path.join(loc.gitDir, "HEAD"), GITFILE_MAX).toString("utf8");
  } catch (e) {
    throw new UnreadableRepository(`HEAD: ${e instanceof Error ? e.message : String(e)}`);
  }
  if (!/^(ref: refs\/[^\0\n]+|[0-9a-f]{40}|[0-9a-f]{64})\n?$/.test(head)) throw new UnreadableRepository("HEAD is neither a branch nor a commit.");
  const objects = fs.realpathSync(path.join(loc.commonDir, "objects"));
  if (/[\n\r]/.test(objects)) throw new UnreadableRepository("The objects folder has a line break in its path.");

  const shadow = fs.mkdtempSync(path.join(scratchDir(), "repo-"));
  const close = () => fs.rmSync(shadow, { recursive: true, force: true });
  try {
    fs.writeFileSync(path.join(shadow, "HEAD"), head);
    fs.mkdirSync(path.join(shadow, "objects", "info"), { recursive: true });
    fs.writeFileSync(path.join(shadow, "objects", "info", "alternates"), `${objects}\n`);
    if (statOrNull(path.join(loc.commonDir, "refs"))) linkIfPresent(path.join(loc.commonDir, "refs"), path.join(shadow, "refs"), "dir");
    else fs.mkdirSync(path.join(shadow, "refs"));
    linkIfPresent(path.join(loc.commonDir, "packed-refs"), path.join(shadow, "packed-refs"), "file");
    linkIfPresent(path.join(loc.commonDir, "shallow"), path.join(shadow, "shallow"), "file");
    linkIfPresent(path.join(loc.commonDir, "reftable"), path.join(shadow, "reftable"), "dir");
    fs.writeFileSync(path.join(shadow, "config"), SHADOW_CONFIG(0));
    const extensions = await readExtensions(loc, shadow);
    if (extensions) fs.writeFileSync(path.join(shadow, "config"), SHADOW_CONFIG(1) + extensions);
  } catch (e) {
    close();
    throw e instanceof UnreadableRepository ? e : new UnreadableRepository(e instanceof Error ? e.message : String(e));
  }
  return {
    location: loc,
    gitDir: shadow,
    run: (args, opts) => runGit(args, { ...opts, gitDir: shadow }),
    close,
  };
}

/** Opens, runs `fn`, closes. */
export async function withRepository<T>(loc: GitLocation, fn: (repo: GitRepository) => Promise<T>): Promise<T> {
  const repo = await openRepository(loc);
  try {
    return await fn(repo);
  } finally {
    repo.close();
  }
}
