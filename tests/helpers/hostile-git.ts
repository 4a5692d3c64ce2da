/**
 * Git repositories whose own configuration is built to make the Workbench run programs, read
 * files outside the project or hang: one trap per setting that git's documentation (git-config(1)
 * and the pages it points to: githooks(5), gitattributes(5), git-archive(1), git-send-email(1),
 * gitremote-helpers(7)) says starts a command, plus includes of files outside the project.
 *
 * Every trap names its own marker program (`outside/bin/<trap>`), a shell script that appends
 * the trap's name to `outside/MARKER`: a run that starts any of them leaves its name there.
 * Files outside the project that must never be read are named pipes (a reader would wait for a
 * writer forever) or set commands of their own, so reading them is seen without tracing.
 *
 * A repository with a working tree (a project folder) and a bare one beside it (a remote to
 * clone and fetch) carry the same traps: in `.git/config` (and `config.worktree`), in hooks
 * (the default hooks folder and `core.hooksPath`), and in files the configuration includes.
 */
import { execFileSync } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { makeTempDir } from "./project-builder";

/** Every hook githooks(5) documents. */
export const HOOK_NAMES = [
  "applypatch-msg",
  "pre-applypatch",
  "post-applypatch",
  "pre-commit",
  "pre-merge-commit",
  "prepare-commit-msg",
  "commit-msg",
  "post-commit",
  "pre-rebase",
  "post-checkout",
  "post-merge",
  "pre-push",
  "pre-receive",
  "update",
  "proc-receive",
  "post-receive",
  "post-update",
  "reference-transaction",
  "push-to-checkout",
  "pre-auto-gc",
  "post-rewrite",
  "sendemail-validate",
  "fsmonitor-watchman",
  "p4-changelist",
  "p4-prepare-changelist",
  "p4-post-changelist",
  "p4-pre-submit",
  "post-index-change",
] as const;

/** The subcommands a trap on `pager.<cmd>` or `alias.<cmd>` is set for: every one the Workbench might run. */
const SUBCOMMANDS = ["log", "show-ref", "for-each-ref", "rev-parse", "symbolic-ref", "clone", "fetch", "reset", "remote", "config", "status", "show", "cat-file", "rev-list", "ls-remote", "upload-pack"];

/** One line of config: section (with subsection), key, value. */
type Line = [section: string, key: string, value: string];

interface TrapCtx {
  /** The marker program of this trap (or of a named part of it). */
  bin: (part?: string) => string;
  outside: string;
  secret: string;
  /** A named pipe outside the project. */
  fifo: (name: string) => string;
  /** A file outside the project. */
  writeOutside: (name: string, content: string) => string;
}

interface TrapDef {
  /** Config lines for the repository's own `.git/config`. */
  config: (c: TrapCtx) => Line[];
  /** Extra set-up (hooks, worktree config) in the git folder. */
  gitDir?: (c: TrapCtx, gitDir: string) => void;
}

const signed = (program: Line): Line[] => [[sec("log"), "showSignature", "true"], program];

/** Configuration text for the lines: values quoted, so paths and commands are taken whole. */
function configText(lines: Line[]): string {
  const q = (v: string) => `"${v.replace(/\\/g, "\\\\").replace(/"/g, '\\"')}"`;
  return lines.map(([section, key, value]) => `${section}\n\t${key} = ${q(value)}\n`).join("");
}

const sec = (name: string, sub?: string) => (sub === undefined ? `[${name}]` : `[${name} "${sub}"]`);

/** An included configuration file outside the project that turns on signature checking with its own program. */
function includeFile(c: TrapCtx, name: string): string {
  return c.writeOutside(`${name}.gitconfig`, configText(signed([sec("gpg"), "program", c.bin()])) + configText([[sec("core"), "fsmonitor", c.bin("fsmonitor")]]));
}

export const GIT_TRAPS = {
  "core.fsmonitor": { config: (c) => [[sec("core"), "fsmonitor", c.bin()]] },
  "core.fsmonitorHookVersion": {
    config: (c) => [
      [sec("core"), "fsmonitor", c.bin()],
      [sec("core"), "fsmonitorHookVersion", "1"],
    ],
  },
  "core.hooksPath": {
    config: (c) => [[sec("core"), "hooksPath", path.join(c.outside, "hooks")]],
    gitDir: (c) => {
      const dir = path.join(c.outside, "hooks");
      fs.mkdirSync(dir, { recursive: true });
      for (const h of HOOK_NAMES) if (!fs.existsSync(path.join(dir, h))) fs.symlinkSync(c.bin(h), path.join(dir, h));
    },
  },
  hooks: {
    // Not a setting: the default hooks folder in the git folder, with every documented hook.
    config: () => [
      [sec("receive"), "procReceiveRefs", "refs"],
      [sec("gc"), "auto", "1"],
    ],
    gitDir: (c, gitDir) => {
      fs.mkdirSync(path.join(gitDir, "hooks"), { recursive: true });
      for (const h of HOOK_NAMES) {
        fs.copyFileSync(c.bin(h), path.join(gitDir, "hooks", h));
        fs.chmodSync(path.join(gitDir, "hooks", h), 0o755);
      }
    },
  },
  "core.gitProxy": { config: (c) => [[sec("core"), "gitProxy", c.bin()]] },
  "core.sshCommand": {
    config: (c) => [
      [sec("core"), "sshCommand", c.bin()],
      [sec("ssh"), "variant", "ssh"],
    ],
  },
  "core.alternateRefsCommand": { config: (c) => [[sec("core"), "alternateRefsCommand", c.bin()]] },
  "core.askPass": { config: (c) => [[sec("core"), "askPass", c.bin()]] },
  "core.editor": { config: (c) => [[sec("core"), "editor", c.bin()]] },
  "core.pager": {
    config: (c) => [
      [sec("core"), "pager", c.bin()],
      [sec("color"), "pager", "true"],
    ],
  },
  "pager.<cmd>": { config: (c) => SUBCOMMANDS.map((cmd): Line => [sec("pager"), cmd, c.bin(cmd)]) },
  "alias.*": { config: (c) => [...SUBCOMMANDS.map((cmd): Line => [sec("alias"), cmd, `!${c.bin(cmd)}`]), [sec("alias"), "wb", `!${c.bin("wb")}`], [sec("help"), "autoCorrect", "-1"]] },
  "browser.<tool>.cmd": {
    config: (c) => [
      [sec("browser", "wbtrap"), "cmd", c.bin()],
      [sec("web"), "browser", "wbtrap"],
      [sec("help"), "browser", "wbtrap"],
    ],
  },
  "browser.<tool>.path": {
    config: (c) => [
      [sec("browser", "firefox"), "path", c.bin()],
      [sec("web"), "browser", "firefox"],
    ],
  },
  "credential.helper": { config: (c) => [[sec("credential"), "helper", c.bin()]] },
  "credential.<url>.helper": {
    config: (c) => [
      [sec("credential", "file://"), "helper", c.bin("file")],
      [sec("credential", "https://"), "helper", c.bin("https")],
    ],
  },
  "diff.external": { config: (c) => [[sec("diff"), "external", c.bin()]] },
  "diff.<driver>.command": { config: (c) => [[sec("diff", "wbtrap"), "command", c.bin()]] },
  "diff.<driver>.textconv": { config: (c) => [[sec("diff", "wbtrap"), "textconv", c.bin()]] },
  "difftool.<tool>.cmd": {
    config: (c) => [
      [sec("difftool", "wbtrap"), "cmd", c.bin()],
      [sec("diff"), "tool", "wbtrap"],
    ],
  },
  "difftool.<tool>.path": {
    config: (c) => [
      [sec("difftool", "vimdiff"), "path", c.bin()],
      [sec("diff"), "tool", "vimdiff"],
    ],
  },
  "filter.<driver>.clean": { config: (c) => [[sec("filter", "wbtrap"), "clean", c.bin()]] },
  "filter.<driver>.smudge": { config: (c) => [[sec("filter", "wbtrap"), "smudge", c.bin()]] },
  "filter.<driver>.process": { config: (c) => [[sec("filter", "wbtrap"), "process", c.bin()]] },
  "merge.<driver>.driver": { config: (c) => [[sec("merge", "wbtrap"), "driver", c.bin()]] },
  "mergetool.<tool>.cmd": {
    config: (c) => [
      [sec("mergetool", "wbtrap"), "cmd", c.bin()],
      [sec("merge"), "tool", "wbtrap"],
    ],
  },
  "mergetool.<tool>.path": {
    config: (c) => [
      [sec("mergetool", "vimdiff"), "path", c.bin()],
      [sec("merge"), "tool", "vimdiff"],
    ],
  },
  "gpg.program": { config: (c) => signed([sec("gpg"), "program", c.bin()]) },
  "gpg.<format>.program": { config: (c) => signed([sec("gpg", "openpgp"), "program", c.bin()]) },
  "gpg.x509.program": { config: (c) => signed([sec("gpg", "x509"), "program", c.bin()]) },
  "gpg.ssh.program": { config: (c) => [...signed([sec("gpg", "ssh"), "program", c.bin()]), [sec("gpg", "ssh"), "allowedSignersFile", c.writeOutside("allowed-signers", `${c.secret} ssh-ed25519 AAAA\n`)]] },
  "gpg.ssh.defaultKeyCommand": {
    config: (c) => [
      [sec("gpg", "ssh"), "defaultKeyCommand", c.bin()],
      [sec("gpg"), "format", "ssh"],
      [sec("commit"), "gpgSign", "true"],
      [sec("tag"), "gpgSign", "true"],
    ],
  },
  "log.showSignature": { config: (c) => signed([sec("gpg"), "program", c.bin()]) },
  "merge.verifySignatures": {
    config: (c) => [
      [sec("merge"), "verifySignatures", "true"],
      [sec("gpg"), "program", c.bin()],
    ],
  },
  "guitool.<name>.cmd": { config: (c) => [[sec("guitool", "wbtrap"), "cmd", c.bin()]] },
  "imap.tunnel": { config: (c) => [[sec("imap"), "tunnel", c.bin()]] },
  "instaweb.httpd": {
    config: (c) => [
      [sec("instaweb"), "httpd", c.bin()],
      [sec("instaweb"), "browser", "wbtrap"],
      [sec("browser", "wbtrap"), "cmd", c.bin("browser")],
    ],
  },
  "interactive.diffFilter": { config: (c) => [[sec("interactive"), "diffFilter", c.bin()]] },
  "man.<tool>.cmd": {
    config: (c) => [
      [sec("man", "wbtrap"), "cmd", c.bin()],
      [sec("man"), "viewer", "wbtrap"],
    ],
  },
  "man.<tool>.path": {
    config: (c) => [
      [sec("man", "man"), "path", c.bin()],
      [sec("man"), "viewer", "man"],
    ],
  },
  "remote.<name>.uploadpack": {
    config: (c) => [
      [sec("remote", "origin"), "url", c.outside],
      [sec("remote", "origin"), "uploadpack", c.bin()],
    ],
  },
  "remote.<name>.receivepack": {
    config: (c) => [
      [sec("remote", "origin"), "url", c.outside],
      [sec("remote", "origin"), "receivepack", c.bin()],
    ],
  },
  "remote.<name>.vcs": {
    config: (c) => [
      [sec("remote", "origin"), "vcs", "wbtrap"],
      [sec("remote", "origin"), "url", `ext::${c.bin("ext")}`],
    ],
  },
  "url.<base>.insteadOf": {
    config: (c) => [
      [sec("url", `ext::${c.bin()} `), "insteadOf", "file://"],
      [sec("url", `ext::${c.bin("https")} `), "insteadOf", "https://"],
      [sec("url", `ext::${c.bin("plain")} `), "insteadOf", "/"],
      [sec("protocol"), "allow", "always"],
      [sec("protocol", "ext"), "allow", "always"],
    ],
  },
  "uploadpack.packObjectsHook": { config: (c) => [[sec("uploadpack"), "packObjectsHook", c.bin()]] },
  "sequence.editor": { config: (c) => [[sec("sequence"), "editor", c.bin()]] },
  "submodule.<name>.update": {
    config: (c) => [
      [sec("submodule", "wbtrap"), "update", `!${c.bin()}`],
      [sec("submodule", "wbtrap"), "url", c.outside],
      [sec("submodule"), "recurse", "true"],
    ],
  },
  "tar.<format>.command": {
    config: (c) => [
      [sec("tar", "tar"), "command", c.bin()],
      [sec("tar", "wbtrap"), "command", c.bin("wbtrap")],
    ],
  },
  "sendemail.sendmailCmd": {
    config: (c) => [
      [sec("sendemail"), "sendmailCmd", c.bin()],
      [sec("sendemail"), "smtpServer", c.bin("smtpServer")],
      [sec("sendemail"), "toCmd", c.bin("toCmd")],
      [sec("sendemail"), "ccCmd", c.bin("ccCmd")],
    ],
  },
  // A partial clone fetches a missing object on demand from its promisor remote; here that
  // remote's URL runs the marker through the ext transport the repository allows itself.
  "extensions.partialClone": {
    config: (c) => [
      [sec("core"), "repositoryformatversion", "1"],
      [sec("extensions"), "partialClone", "origin"],
      [sec("remote", "origin"), "url", `ext::${c.bin()}`],
      [sec("remote", "origin"), "promisor", "true"],
      [sec("protocol", "ext"), "allow", "always"],
    ],
    gitDir: (_c, gitDir) => {
      // The root commit goes missing, so a walk of the history asks the promisor for it.
      const root = git(gitDir, ["rev-list", "--max-parents=0", "HEAD"]).trim();
      fs.rmSync(path.join(gitDir, "objects", root.slice(0, 2), root.slice(2)));
    },
  },
  "core.worktree": { config: (c) => [[sec("core"), "worktree", path.join(c.outside, "worktree")]] },
  "config.worktree": {
    // The per-worktree configuration file, read when the repository turns it on.
    config: () => [
      [sec("core"), "repositoryformatversion", "1"],
      [sec("extensions"), "worktreeConfig", "true"],
    ],
    gitDir: (c, gitDir) => fs.writeFileSync(path.join(gitDir, "config.worktree"), configText(signed([sec("gpg"), "program", c.bin()])) + configText([[sec("core"), "fsmonitor", c.bin("fsmonitor")]])),
  },
  "mailmap.file": {
    config: (c) => [
      [sec("mailmap"), "file", c.fifo("mailmap")],
      [sec("log"), "mailmap", "true"],
    ],
  },
  "core.attributesFile": { config: (c) => [[sec("core"), "attributesFile", c.fifo("attributes")]] },
  "core.excludesFile": { config: (c) => [[sec("core"), "excludesFile", c.fifo("excludes")]] },
  "include.path": { config: (c) => [[sec("include"), "path", includeFile(c, "include")]] },
  "include.path (secret)": {
    // A file outside that must never be read: its settings would change what git prints
    // (13-digit short hashes) and run its own marker program.
    config: (c) => [[sec("include"), "path", c.writeOutside("secret.gitconfig", configText([[sec("core"), "abbrev", "13"], [sec("wb"), "secret", c.secret], ...signed([sec("gpg"), "program", c.bin()])]))]],
  },
  "include.path (named pipe)": { config: (c) => [[sec("include"), "path", c.fifo("include.gitconfig")]] },
  "includeIf.gitdir": { config: (c) => [[sec("includeIf", "gitdir:/"), "path", includeFile(c, "includeif-gitdir")]] },
  "includeIf.gitdir/i": { config: (c) => [[sec("includeIf", "gitdir/i:/"), "path", includeFile(c, "includeif-gitdir-i")]] },
  "includeIf.onbranch": { config: (c) => [[sec("includeIf", "onbranch:**"), "path", includeFile(c, "includeif-onbranch")]] },
  "includeIf.hasconfig": {
    config: (c) => [
      [sec("remote", "upstream"), "url", "https://example.invalid/x.git"],
      [sec("includeIf", "hasconfig:remote.*.url:**"), "path", includeFile(c, "includeif-hasconfig")],
    ],
  },
} satisfies Record<string, TrapDef>;

export type GitTrapId = keyof typeof GIT_TRAPS;
export const GIT_TRAP_IDS = Object.keys(GIT_TRAPS) as GitTrapId[];
/** Traps that break the repository on purpose (a missing object): git reads nothing there, before or after. */
export const BREAKING_GIT_TRAPS: readonly GitTrapId[] = ["extensions.partialClone"];

const GIT_ENV: NodeJS.ProcessEnv = {
  ...process.env,
  PATH: process.env.PATH ?? "/usr/bin:/bin",
  HOME: os.tmpdir(),
  GIT_CONFIG_NOSYSTEM: "1",
  GIT_CONFIG_GLOBAL: os.devNull,
  GIT_AUTHOR_NAME: "Hostile",
  GIT_AUTHOR_EMAIL: "hostile@example.invalid",
  GIT_COMMITTER_NAME: "Hostile",
  GIT_COMMITTER_EMAIL: "hostile@example.invalid",
  GIT_AUTHOR_DATE: "2026-03-01T10:00:00Z",
  GIT_COMMITTER_DATE: "2026-03-01T10:00:00Z",
};

/** git for building the repositories, before any trap is set (the traps would fire on it). */
function git(gitDir: string, args: string[], input?: string): string {
  return execFileSync("git", ["--git-dir", gitDir, ...args], { env: GIT_ENV, input, encoding: "utf8", stdio: ["pipe", "pipe", "pipe"] });
}

function gitIn(dir: string, args: string[], env: Record<string, string> = {}): string {
  return execFileSync("git", args, { cwd: dir, env: { ...GIT_ENV, ...env }, encoding: "utf8", stdio: ["pipe", "pipe", "pipe"] });
}

/** A commit object carrying a signature header of the given kind (its content is no real signature). */
function signedCommit(gitDir: string, parent: string, kind: "pgp" | "x509" | "ssh", subject: string, time: number): string {
  const tree = git(gitDir, ["rev-parse", `${parent}^{tree}`]).trim();
  const armor = { pgp: "PGP SIGNATURE", x509: "SIGNED MESSAGE", ssh: "SSH SIGNATURE" }[kind];
  const body = [
    `tree ${tree}`,
    `parent ${parent}`,
    `author Hostile <hostile@example.invalid> ${time} +0000`,
    `committer Hostile <hostile@example.invalid> ${time} +0000`,
    `gpgsig -----BEGIN ${armor}-----`,
    " ",
    " d2JzaWduYXR1cmU=",
    ` -----END ${armor}-----`,
    "",
    subject,
    "",
  ].join("\n");
  return git(gitDir, ["hash-object", "-t", "commit", "-w", "--stdin"], body).trim();
}

export interface HostileGit {
  /** The project folder: a repository with a working tree. */
  root: string;
  /** A bare repository beside it with the same history and traps (a remote). */
  bare: string;
  /** Outside both: the marker programs, the included files, the marker file. */
  outside: string;
  marker: string;
  /** Written into a file outside that only an include names: must never show anywhere. */
  secret: string;
  traps: readonly GitTrapId[];
  /** Subjects of the commits on main, newest first. */
  subjects: string[];
  /** The traps (and parts) whose programs ran, in order; empty when none did. */
  fired(): string[];
  /** Runs `fn` with every trap of both repositories set aside (the set-up's own git runs), then sets them again. */
  withoutTraps<T>(fn: () => T): T;
  /** A new commit on main of the bare repository (pushed with the traps set aside). */
  pushCommit(subject: string, file: string, content: string): void;
}

/** Builds the clean repositories once; buildHostileGit copies them. */
function buildBase(): { dir: string; subjects: string[] } {
  const dir = makeTempDir("wb-hostile-git-base-");
  const root = path.join(dir, "project");
  fs.mkdirSync(root);
  gitIn(root, ["init", "-q", "-b", "main", "--template="]);
  const write = (rel: string, content: string) => {
    fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    fs.writeFileSync(path.join(root, rel), content);
  };
  write("README.md", "# Hostile git\n\nauth session\n");
  // Every path goes through the trap drivers a repository's own config can define.
  write(".gitattributes", "* diff=wbtrap filter=wbtrap merge=wbtrap\n");
  write(".mailmap", "Someone Else <else@example.invalid> <hostile@example.invalid>\n");
  write(".claude/work/GIT-1/state.json", JSON.stringify({ schema_version: 2, identifier: "GIT-1", title: "Git traps", status: "in_progress", phase: "implementation", updated_at: "2026-03-01T10:00:00Z" }, null, 2));
  gitIn(root, ["add", "-A"]);
  gitIn(root, ["commit", "-q", "-m", "chore: initial import"]);
  gitIn(root, ["branch", "feature/GIT-1"]);
  const gitDir = path.join(root, ".git");
  let head = git(gitDir, ["rev-parse", "HEAD"]).trim();
  // A minute apart after the first commit (2026-03-01T10:00:00Z), so newest-first is one order.
  for (const [i, kind] of (["pgp", "x509", "ssh"] as const).entries()) head = signedCommit(gitDir, head, kind, `feat: signed with ${kind}`, 1772359200 + 60 * (i + 1));
  git(gitDir, ["update-ref", "refs/heads/main", head]);
  git(gitDir, ["tag", "v1", head]);
  gitIn(root, ["clone", "-q", "--bare", "--template=", root, path.join(dir, "origin.git")]);
  return { dir, subjects: ["feat: signed with ssh", "feat: signed with x509", "feat: signed with pgp", "chore: initial import"] };
}

let base: { dir: string; subjects: string[] } | undefined;

/** A fresh copy of the clean repositories with `traps` set in both. */
export function buildHostileGit(traps: readonly GitTrapId[] = GIT_TRAP_IDS.filter((t) => !BREAKING_GIT_TRAPS.includes(t))): HostileGit {
  base ??= buildBase();
  const dir = makeTempDir("wb-hostile-git-");
  const root = path.join(dir, "project");
  const bare = path.join(dir, "origin.git");
  const outside = path.join(dir, "outside");
  fs.cpSync(path.join(base.dir, "project"), root, { recursive: true });
  fs.cpSync(path.join(base.dir, "origin.git"), bare, { recursive: true });
  fs.mkdirSync(path.join(outside, "bin"), { recursive: true });
  const marker = path.join(outside, "MARKER");
  const secret = `WB-GIT-SECRET-${crypto.randomBytes(6).toString("hex")}`;

  const setAside: [string, string][] = [];
  for (const gitDir of [path.join(root, ".git"), bare]) {
    const lines: Line[] = [];
    for (const trap of traps) {
      const slug = trap.replace(/[^A-Za-z0-9._-]+/g, "_");
      const ctx: TrapCtx = {
        outside,
        secret,
        bin: (part) => {
          const id = part ? `${trap}:${part}` : trap;
          const file = path.join(outside, "bin", part ? `${slug}--${part.replace(/[^A-Za-z0-9._-]+/g, "_")}` : slug);
          if (!fs.existsSync(file)) fs.writeFileSync(file, `#!/bin/sh\nprintf '%s\\n' '${id}' >> '${marker}'\nexit 1\n`, { mode: 0o755 });
          return file;
        },
        fifo: (name) => {
          const file = path.join(outside, `${slug}--${name}`);
          if (!fs.existsSync(file)) execFileSync("mkfifo", [file]);
          return file;
        },
        writeOutside: (name, content) => {
          const file = path.join(outside, `${slug}--${name}`);
          fs.writeFileSync(file, content);
          return file;
        },
      };
      const def: TrapDef = GIT_TRAPS[trap];
      def.gitDir?.(ctx, gitDir);
      lines.push(...def.config(ctx));
    }
    fs.appendFileSync(path.join(gitDir, "config"), configText(lines));
    setAside.push([path.join(gitDir, "config"), path.join(gitDir, "config.trapped")]);
    if (fs.existsSync(path.join(gitDir, "hooks"))) setAside.push([path.join(gitDir, "hooks"), path.join(gitDir, "hooks.trapped")]);
  }

  const withoutTraps = <T>(fn: () => T): T => {
    for (const [from, to] of setAside) fs.renameSync(from, to);
    try {
      for (const gitDir of [path.join(root, ".git"), bare]) {
        // A plain config in place of the trapped one, keeping what the set-up's git needs.
        fs.writeFileSync(path.join(gitDir, "config"), gitDir === bare ? "[core]\n\trepositoryformatversion = 0\n\tbare = true\n" : "[core]\n\trepositoryformatversion = 0\n\tbare = false\n");
      }
      return fn();
    } finally {
      for (const [from, to] of setAside) fs.renameSync(to, from);
    }
  };

  return {
    root,
    bare,
    outside,
    marker,
    secret,
    traps,
    subjects: base.subjects,
    fired: () => (fs.existsSync(marker) ? fs.readFileSync(marker, "utf8").split("\n").filter(Boolean) : []),
    withoutTraps,
    pushCommit(subject, file, content) {
      withoutTraps(() => {
        const work = makeTempDir("wb-hostile-git-push-");
        gitIn(work, ["clone", "-q", "--template=", bare, "w"]);
        const w = path.join(work, "w");
        fs.mkdirSync(path.dirname(path.join(w, file)), { recursive: true });
        fs.writeFileSync(path.join(w, file), content);
        gitIn(w, ["add", "-A"]);
        // A day after the built history, so it is the newest commit.
        gitIn(w, ["commit", "-q", "-m", subject], { GIT_AUTHOR_DATE: "2026-03-02T10:00:00Z", GIT_COMMITTER_DATE: "2026-03-02T10:00:00Z" });
        gitIn(w, ["push", "-q", "origin", "main"]);
      });
    },
  };
}
